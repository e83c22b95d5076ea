// Undoes termios PARMRK marking: framing/parity errors and breaks out, data bytes through.

/// With `PARMRK` and `INPCK` set (and `IGNPAR`, `IGNBRK` clear) the kernel marks a byte
/// received with a framing or parity error as `\377 \0 X`, a break as `\377 \0 \0`, and a
/// real `\377` as `\377 \377`. This decoder turns that stream back into data bytes and a
/// count of line errors. A value type: a mark cut between two reads is completed by the next.
public struct MarkedInputDecoder: Sendable {
    private enum State: Sendable {
        case data, marked, markedZero
    }

    private var state = State.data

    /// A decoder at the start of a stream.
    public init() {}

    /// Decodes `bytes`: the data bytes, and how many framing/parity errors or breaks were
    /// marked (the byte received with an error is dropped: it is not data).
    public mutating func feed(_ bytes: [UInt8]) -> (data: [UInt8], lineErrors: Int) {
        var data: [UInt8] = []
        data.reserveCapacity(bytes.count)
        var errors = 0
        for byte in bytes {
            switch state {
            case .data:
                if byte == 0xFF { state = .marked } else { data.append(byte) }
            case .marked:
                switch byte {
                case 0xFF:
                    data.append(0xFF)
                    state = .data
                case 0x00: state = .markedZero
                default:  // not a mark the kernel makes: keep both bytes as data
                    data += [0xFF, byte]
                    state = .data
                }
            case .markedZero:
                errors += 1  // X: the byte with the error (0 for a break)
                state = .data
            }
        }
        return (data, errors)
    }
}
