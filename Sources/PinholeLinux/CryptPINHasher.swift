// Hashes and checks the console PIN with crypt(3) (libxcrypt's yescrypt).

import CCrypt
#if canImport(Glibc)
    import Glibc
#endif
import PinholeCore
import PinholeSystem
import SystemPackage

/// PIN hashing with libxcrypt: yescrypt with a random salt from the kernel
/// (`crypt_gensalt_rn` reads getrandom(2)), the scheme Debian uses for login passwords.
/// Memory-hard and salted, so a copied configuration file does not give the PIN away
/// cheaply; checking takes a few tens of milliseconds, which the lock-out multiplies.
public struct CryptPINHasher: Sendable {
    /// The hash prefix: yescrypt.
    public static let scheme = "$y$"

    /// A hasher.
    public init() {}

    /// A new salted hash of `pin` (e.g. `$y$j9T$…`).
    public func hash(_ pin: String) throws -> String {
        var salt = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        guard crypt_gensalt_rn(Self.scheme, 0, nil, 0, &salt, Int32(salt.count)) != nil else {
            throw CryptError(operation: "making a salt", errno: currentErrno)
        }
        guard let hashed = crypt(pin, saltText: salt) else {
            throw CryptError(operation: "hashing", errno: currentErrno)
        }
        return hashed
    }

    /// Whether `pin` matches `hash` (compared in constant time).
    public func verify(_ pin: String, against hash: String) -> Bool {
        guard let computed = crypt(pin, saltText: Array(hash.utf8CString)) else { return false }
        return constantTimeEqual(computed, hash)
    }

    private func crypt(_ pin: String, saltText: [CChar]) -> String? {
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        defer {
            memset(data, 0, MemoryLayout<crypt_data>.size)  // do not leave the PIN in memory
            data.deallocate()
        }
        memset(data, 0, MemoryLayout<crypt_data>.size)
        guard let result = crypt_r(pin, saltText, data) else { return nil }
        let text = String(cString: result)
        return text.hasPrefix("*") ? nil : text  // "*0"/"*1": failure tokens
    }
}

/// A crypt(3) failure.
public struct CryptError: Error, CustomStringConvertible {
    /// What was being done.
    public var operation: String
    /// Why.
    public var errno: Errno

    /// A readable form, for messages and logs.
    public var description: String {
        "PIN hash: \(operation) failed (\(errno)): check that libxcrypt supports yescrypt"
    }
}
