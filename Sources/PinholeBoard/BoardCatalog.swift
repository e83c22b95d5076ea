// Finds board profiles: the built-in simulated board, profile directories, and `auto`.

import PinholeCore
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Resolves `--board auto|sim|NAME|PATH` to a profile.
public struct BoardCatalog: Sendable {
    /// Directories searched for `NAME/board.toml`, in order.
    public var searchPath: [FilePath]
    /// The file holding the board's model name (tests point it at a fake).
    public var modelFile: FilePath

    /// The device tree's model file on Linux.
    public static let deviceTreeModelFile: FilePath = "/proc/device-tree/model"

    /// Creates a catalog; `PINHOLE_BOARD_DIR`, `./board`, `/usr/share/pinhole/board` and
    /// `/etc/pinhole/board` are searched by default.
    public init(searchPath: [FilePath]? = nil, modelFile: FilePath = BoardCatalog.deviceTreeModelFile) {
        self.modelFile = modelFile
        if let searchPath {
            self.searchPath = searchPath
        } else {
            var path: [FilePath] = []
            if let dir = getenv("PINHOLE_BOARD_DIR") { path.append(FilePath(String(cString: dir))) }
            path += ["board", "/usr/share/pinhole/board", "/etc/pinhole/board"]
            self.searchPath = path
        }
    }

    /// The profile for a `--board` argument. `auto` reads /proc/device-tree/model and falls
    /// back to the simulated board; the second value says how the choice was made.
    public func resolve(_ argument: String) throws -> (BoardProfile, note: String) {
        if argument == "sim" {
            return (try BuiltInBoards.simulated(), "simulated board")
        }
        if argument == "auto" {
            guard let model = Self.deviceTreeModel(file: modelFile) else {
                return (try BuiltInBoards.simulated(), "no device tree model: using the simulated board")
            }
            if let (profile, file) = try match(model: model) { return (profile, "\(model) → \(file)") }
            return (try BuiltInBoards.simulated(), "no profile matches '\(model)': using the simulated board")
        }
        if argument.contains("/") || argument.hasSuffix(".toml") {
            let file =
                argument.hasSuffix(".toml") ? FilePath(argument) : FilePath(argument).appending("board.toml")
            return (try load(file: file), file.string)
        }
        for directory in searchPath {
            let file = directory.appending(argument).appending("board.toml")
            if FileSystem.exists(file) { return (try load(file: file), file.string) }
        }
        throw ConfigurationError(
            file: FilePath(argument), line: 0,
            reason: "no board profile '\(argument)' in "
                + searchPath.map(\.string).joined(separator: ", ")
                + ": use sim, auto, a name under board/ or a path")
    }

    /// Loads and validates one profile file.
    public func load(file: FilePath) throws -> BoardProfile {
        guard let text = FileSystem.readText(file) else {
            throw ConfigurationError(file: file, line: 0, reason: "cannot read the file: check the path")
        }
        let components = Array(file.components)
        let name = components.count >= 2 ? components[components.count - 2].string : "board"
        return try BoardProfile.parse(text, file: file, name: name)
    }

    /// The profile whose `[board] model` is the longest prefix of `model`, searching every
    /// directory of the search path (earlier directories win a tie). A profile that matches
    /// but does not parse is an error, not a silent fall-back to another board.
    public func match(model: String) throws -> (BoardProfile, file: FilePath)? {
        var best: (profile: BoardProfile, file: FilePath, length: Int)?
        for directory in searchPath {
            for name in FileSystem.list(directory).sorted() {
                let file = directory.appending(name).appending("board.toml")
                guard let text = FileSystem.readText(file), let prefix = Self.modelPrefix(in: text),
                    model.hasPrefix(prefix), prefix.count > (best?.length ?? 0)
                else { continue }
                best = (try BoardProfile.parse(text, file: file, name: name), file, prefix.count)
            }
        }
        return best.map { ($0.profile, $0.file) }
    }

    /// The `[board] model` of a profile's text, read leniently (nil when absent or unreadable).
    private static func modelPrefix(in text: String) -> String? {
        guard let root = try? TOMLDocument.parse(text, file: ""), case .table(let board)? = root["board"],
            case .string(let model)? = board["model"], !model.isEmpty
        else { return nil }
        return model
    }

    /// The board's model string from the device tree, without the trailing NUL.
    public static func deviceTreeModel(file: FilePath = deviceTreeModelFile) -> String? {
        guard let text = FileSystem.readText(file) else { return nil }
        let model = String(text.prefix { $0 != "\0" })
        return model.isEmpty ? nil : model
    }
}
