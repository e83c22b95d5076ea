// The number of online CPUs, the default parallelism of the encoders.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about the machine the encoders run on.
public enum SystemInfo {
    /// Number of CPUs currently online (at least 1).
    public static var onlineCPUs: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
