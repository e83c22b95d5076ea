// What a file under originals/ is, by its name: original, motion clip, recording, temporary or foreign.

/// What a file name under `originals/` is, by name alone.
enum OriginalsEntry: Equatable {
    /// A partial temporary file (`.NAME.tmp`).
    case temp
    /// A clip whose recording never ended (`.ID.mp4.recording`).
    case recording(String)
    /// A Live Photo's motion clip (`ID.motion.mp4`).
    case motion(String)
    /// An original (`ID.jpg`, `ID.mp4`).
    case original(String)
    /// Anything else.
    case foreign

    /// Classifies the file name `name`.
    init(_ name: String) {
        if LibraryScanner.isTemp(name) {
            self = .temp
        } else if let id = LibraryScanner.identifier(ofRecording: name) {
            self = .recording(id)
        } else if let id = LibraryScanner.identifier(ofMotion: name) {
            self = .motion(id)
        } else if let id = LibraryScanner.identifier(ofOriginal: name) {
            self = .original(id)
        } else {
            self = .foreign
        }
    }
}
