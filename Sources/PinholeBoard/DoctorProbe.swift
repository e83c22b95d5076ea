// What `pinhole doctor` looks at on the machine, behind a protocol so tests can inject a board.

import PinholeCore
import SystemPackage

/// The state of one named GPIO line.
public enum DoctorLineState: Sendable, Equatable {
    /// No chip carries a line of that name; `searched` lists the chips looked at.
    case missing(searched: [String])
    /// The line exists and nobody holds it.
    case free(chip: String)
    /// The line is requested by `consumer`.
    case used(chip: String, consumer: String)
    /// The chips could not be opened (`reason` says why, e.g. permission denied).
    case inaccessible(reason: String)
}

/// A device node's owner group and whether that group may read and write it.
public struct DoctorDevice: Sendable, Equatable {
    /// The node, e.g. /dev/gpiochip0.
    public var path: FilePath
    /// The owning group's name.
    public var group: String
    /// Whether the group has read and write permission.
    public var groupReadWrite: Bool

    /// Creates a description of a device node.
    public init(path: FilePath, group: String, groupReadWrite: Bool) {
        self.path = path
        self.group = group
        self.groupReadWrite = groupReadWrite
    }
}

/// A directory as the service user would find it.
public struct DoctorDirectory: Sendable, Equatable {
    /// The directory (or, when it does not exist yet, the nearest existing parent) checked.
    public var checkedPath: FilePath
    /// Whether `checkedPath` is the directory itself.
    public var exists: Bool
    /// Whether the user may create files in it.
    public var writable: Bool
    /// Free space for unprivileged users, in bytes.
    public var freeBytes: UInt64

    /// Creates a directory description.
    public init(checkedPath: FilePath, exists: Bool, writable: Bool, freeBytes: UInt64) {
        self.checkedPath = checkedPath
        self.exists = exists
        self.writable = writable
        self.freeBytes = freeBytes
    }
}

/// The machine as `pinhole doctor` sees it. The Linux implementation asks libcamera,
/// libgpiod, /proc, /dev and the kernel clock; tests pass a fake.
public protocol DoctorProbe {
    /// The cameras libcamera finds.
    func cameras() throws -> [CameraInfo]
    /// The state of the line called `name` on any chip.
    func line(named name: String) -> DoctorLineState
    /// The label of the chip carrying line `name`, if any chip has it.
    func chipLabel(carrying name: String) -> String?
    /// Whether the machine has a device tree (/proc/device-tree).
    func hasDeviceTree() -> Bool
    /// Whether a device-tree node called `name` exists anywhere in the live tree.
    func deviceTreeHasNode(named name: String) -> Bool
    /// The device node at `path` (symlinks followed), or nil when it does not exist.
    func device(at path: FilePath) -> DoctorDevice?
    /// The GPIO, media and video device nodes present (`/dev/gpiochip*`, `/dev/media*`, `/dev/video*`).
    func cameraAndGPIODevices() -> [DoctorDevice]
    /// The processes holding `path` open, as "NAME (pid N)".
    func processesHolding(_ path: FilePath) -> [String]
    /// Whether the kernel command line puts a console on `deviceName` (e.g. ttyAMA0, serial0).
    func kernelConsole(on deviceNames: [String]) -> Bool
    /// The groups of `user`, or nil when there is no such user.
    func groups(ofUser user: String) -> [String]?
    /// `path` as `user` would find it.
    func directory(_ path: FilePath, user: String) -> DoctorDirectory
    /// Whether the kernel clock is synchronized (adjtimex reports TIME_OK rather than
    /// TIME_ERROR), or nil when it cannot be asked.
    func clockSynchronized() -> Bool?
    /// Connects to gpsd and returns its VERSION release, or throws why not.
    func gpsdVersion(host: String, port: Int) throws -> String
}
