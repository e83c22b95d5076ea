// The C library's allocator held to one arena, so that a burst's freed frames are reused instead of kept per thread.

import CSystemCalls

/// How the process's allocator keeps freed memory.
public enum MallocArenas {
    /// Limits glibc's malloc to one arena for all threads (`mallopt(M_ARENA_MAX, 1)`).
    ///
    /// A burst's 12 MP frames are allocated on one thread (the frame's copy) and freed on
    /// another (after its encode). With glibc's default of up to eight arenas per core, each
    /// thread's arena keeps the frames it served once they are freed, and the process holds
    /// about two frames more than it uses (4.4× one frame above the running appliance against
    /// 1.9× with one arena, `make bench SECTIONS=burst`); handing the buffers back to the system
    /// instead (a low mmap threshold) costs every frame its page faults. Call it before other
    /// threads start. Does nothing where the C library has no such setting.
    public static func useOneArena() {
        _ = pinhole_malloc_arena_max(1)
    }
}
