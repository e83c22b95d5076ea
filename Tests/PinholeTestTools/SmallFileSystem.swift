// A small tmpfs for the storage-full tests: mounted on a test's folder, unmounted in its tearDown.

import XCTest

/// Mounts and unmounts a tmpfs of a few megabytes, so that a test fills a real file system.
public enum SmallFileSystem {
    /// Mounts a tmpfs of `megabytes` MB on `directory`. Where mounting is not allowed (it needs
    /// root or CAP_SYS_ADMIN) the test is skipped with `mount`'s own words; CI runs as root.
    public static func mount(megabytes: Int, on directory: String) throws {
        let mounted = try ExternalTool.run(
            "mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", directory])
        guard mounted.status == 0 else {
            throw XCTSkip(
                "cannot mount a \(megabytes) MB tmpfs here (needs root or CAP_SYS_ADMIN): "
                    + mounted.errorText.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Unmounts `directory` (nil: nothing was mounted). A failure is reported, never hidden.
    public static func unmount(_ directory: String?) {
        guard let directory else { return }
        do {
            let result = try ExternalTool.run("umount", [directory])
            if result.status != 0 { XCTFail("umount \(directory): \(result.errorText)") }
        } catch {
            XCTFail("umount \(directory): \(error)")
        }
    }
}
