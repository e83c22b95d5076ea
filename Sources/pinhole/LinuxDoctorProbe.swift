// The doctor's view of a Linux machine: libcamera, libgpiod line info, /dev, /proc, users, adjtimex.

import CTimex
import PinholeAppliance
import PinholeBoard
import PinholeCore
import PinholeLinux
import PinholeSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Asks the running system what `pinhole doctor` needs to know.
struct LinuxDoctorProbe: DoctorProbe {
    var devDirectory: FilePath = "/dev"
    var deviceTree: FilePath = "/proc/device-tree"

    func cameras() throws -> [CameraInfo] {
        if getenv("LIBCAMERA_LOG_LEVELS") == nil { setenv("LIBCAMERA_LOG_LEVELS", "*:ERROR", 1) }
        return try LibcameraProvider(loop: EventLoop(mode: .realTime)).cameras()
    }

    func line(named name: String) -> DoctorLineState {
        do {
            let info = try GPIOLineInfo.find(name, in: devDirectory)
            let chip = "\(info.chipPath) (\(info.chipLabel))"
            return info.used ? .used(chip: chip, consumer: info.consumer ?? "unnamed") : .free(chip: chip)
        } catch GPIOError.lineNotFound(_, let searched) {
            return .missing(searched: searched)
        } catch {
            return .inaccessible(reason: "\(error)")
        }
    }

    func chipLabel(carrying name: String) -> String? {
        (try? GPIOLineInfo.find(name, in: devDirectory))?.chipLabel
    }

    func hasDeviceTree() -> Bool { FileSystem.exists(deviceTree) }

    func deviceTreeHasNode(named name: String) -> Bool {
        Self.findNode(named: name, in: deviceTree, depth: 6)
    }

    private static func findNode(named name: String, in directory: FilePath, depth: Int) -> Bool {
        guard depth > 0 else { return false }
        for entry in FileSystem.list(directory) {
            let path = directory.appending(entry)
            var info = stat()
            guard lstat(path.string, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            if entry == name || entry.hasPrefix(name + "@") { return true }
            if findNode(named: name, in: path, depth: depth - 1) { return true }
        }
        return false
    }

    func device(at path: FilePath) -> DoctorDevice? {
        var info = stat()
        guard stat(path.string, &info) == 0 else { return nil }
        let resolved = realpath(path.string, nil).map { pointer in
            defer { free(pointer) }
            return FilePath(String(cString: pointer))
        }
        let group = getgrgid(info.st_gid).map { String(cString: $0.pointee.gr_name) } ?? "\(info.st_gid)"
        let readWrite = (info.st_mode & S_IRGRP) != 0 && (info.st_mode & S_IWGRP) != 0
        return DoctorDevice(path: resolved ?? path, group: group, groupReadWrite: readWrite)
    }

    func cameraAndGPIODevices() -> [DoctorDevice] {
        FileSystem.list(devDirectory).sorted()
            .filter { name in ["gpiochip", "media", "video"].contains { name.hasPrefix($0) } }
            .compactMap { device(at: devDirectory.appending($0)) }
    }

    func processesHolding(_ path: FilePath) -> [String] {
        guard let target = realpath(path.string, nil) else { return [] }
        let resolved = String(cString: target)
        free(target)
        var holders: [String] = []
        for pid in FileSystem.list("/proc") where pid.allSatisfy(\.isNumber) {
            let fds = FilePath("/proc/\(pid)/fd")
            let holds = FileSystem.list(fds).contains { fd in
                var buffer = [CChar](repeating: 0, count: 4096)
                let count = readlink(fds.appending(fd).string, &buffer, buffer.count - 1)
                guard count > 0 else { return false }
                return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    == resolved
            }
            if holds {
                let name =
                    (FileSystem.readText(FilePath("/proc/\(pid)/comm")) ?? "?").split(separator: "\n").first
                    ?? "?"
                holders.append("\(name) (pid \(pid))")
            }
        }
        return holders
    }

    func kernelConsole(on deviceNames: [String]) -> Bool {
        let words = (FileSystem.readText("/proc/cmdline") ?? "").split(whereSeparator: {
            $0 == " " || $0 == "\n"
        })
        return words.contains { word in
            guard word.hasPrefix("console=") else { return false }
            let device = word.dropFirst("console=".count).split(separator: ",").first.map(String.init) ?? ""
            return deviceNames.contains(device)
        }
    }

    func groups(ofUser user: String) -> [String]? {
        guard let entry = getpwnam(user) else { return nil }
        let primary = entry.pointee.pw_gid
        var count: Int32 = 64
        var ids = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(user, primary, &ids, &count) < 0 {
            ids = [gid_t](repeating: 0, count: Int(count))
            _ = getgrouplist(user, primary, &ids, &count)
        }
        return ids.prefix(Int(max(count, 0))).map { id in
            getgrgid(id).map { String(cString: $0.pointee.gr_name) } ?? "\(id)"
        }
    }

    func directory(_ path: FilePath, user: String) -> DoctorDirectory {
        var checked = path
        var exists = true
        var info = stat()
        while stat(checked.string, &info) != 0 {
            exists = false
            guard !checked.components.isEmpty else { break }
            checked = DurableFiles.parentDirectory(of: checked)
        }
        let free = UInt64((try? FileSystemSpace.availableBytes(at: checked)) ?? 0)
        return DoctorDirectory(
            checkedPath: checked, exists: exists, writable: writable(info, by: user), freeBytes: free)
    }

    /// Whether `user` may create files in a directory with this status (owner, group, other bits).
    private func writable(_ info: stat, by user: String) -> Bool {
        guard (info.st_mode & S_IFMT) == S_IFDIR, let entry = getpwnam(user) else { return false }
        let uid = entry.pointee.pw_uid
        if uid == 0 { return true }
        if info.st_uid == uid { return (info.st_mode & S_IWUSR) != 0 && (info.st_mode & S_IXUSR) != 0 }
        let group = getgrgid(info.st_gid).map { String(cString: $0.pointee.gr_name) }
        if let group, groups(ofUser: user)?.contains(group) == true {
            return (info.st_mode & S_IWGRP) != 0 && (info.st_mode & S_IXGRP) != 0
        }
        return (info.st_mode & S_IWOTH) != 0 && (info.st_mode & S_IXOTH) != 0
    }

    func clockSynchronized() -> Bool? {
        var request = timex()  // modes 0: read only
        let state = adjtimex(&request)
        if state < 0 { return nil }
        return state != TIME_ERROR
    }

    func gpsdVersion(host: String, port: Int) throws -> String {
        try GPSDProbe.version(host: host, port: port)
    }
}
