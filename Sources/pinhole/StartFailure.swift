// Why `pinhole run` could not start (configuration, board, library, hardware): printed as
// `Error: …` without the usage text, which is only for mistakes in the arguments themselves.

/// A start-up failure whose message says what failed, where (file:line) and what to do.
struct StartFailure: Error, CustomStringConvertible {
    /// What failed and what to do.
    var message: String

    /// The failure of `error`, as it describes itself.
    init(_ error: any Error) { message = "\(error)" }

    /// A failure described by `message`.
    init(message: String) { self.message = message }

    var description: String { message }
}
