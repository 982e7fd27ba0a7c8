import Foundation

@testable import ReadingPreferences

/// Parses bytes with the internal object-document entry point, as `Preferences` does.
func parseJSONObjectDocument(
    _ bytes: [UInt8], options: JSONParsingOptions = .init()
) throws(JSONDecodingError) -> (members: [JSONObject.Member], duplicateKeys: [String]) {
    let outcome: Result<([JSONObject.Member], [String]), JSONDecodingError> = bytes.withUnsafeBufferPointer {
        buffer in
        do throws(JSONDecodingError) {
            return .success(try JSONParser.parseObjectDocument(buffer, options: options))
        } catch {
            return .failure(error)
        }
    }
    switch outcome {
    case .success(let result): return result
    case .failure(let error): throw error
    }
}

/// Parses a string with the internal object-document entry point.
func parseJSONObjectDocument(
    _ text: String, options: JSONParsingOptions = .init()
) throws(JSONDecodingError) -> (members: [JSONObject.Member], duplicateKeys: [String]) {
    try parseJSONObjectDocument(Array(text.utf8), options: options)
}

/// Returns the error thrown by parsing `bytes` as any JSON value, or nil when it parses.
func jsonParseError(_ bytes: [UInt8], options: JSONParsingOptions = .init()) -> JSONDecodingError? {
    do throws(JSONDecodingError) {
        _ = try JSONValue(json: bytes, options: options)
        return nil
    } catch {
        return error
    }
}

/// Returns the error thrown by parsing `text` as any JSON value, or nil when it parses.
func jsonParseError(_ text: String, options: JSONParsingOptions = .init()) -> JSONDecodingError? {
    jsonParseError(Array(text.utf8), options: options)
}

/// Returns the error thrown by parsing `bytes` as an object document, or nil when it parses.
func jsonObjectDocumentError(_ bytes: [UInt8], options: JSONParsingOptions = .init()) -> JSONDecodingError? {
    do throws(JSONDecodingError) {
        _ = try parseJSONObjectDocument(bytes, options: options)
        return nil
    } catch {
        return error
    }
}

/// Bytes of `prefix`, then raw bytes, then `suffix`: for inputs that are not valid UTF-8.
func jsonTestBytes(_ prefix: String, _ raw: [UInt8], _ suffix: String) -> [UInt8] {
    Array(prefix.utf8) + raw + Array(suffix.utf8)
}

/// Runs `body` on a new thread with a small stack and waits for it (Thread's default on
/// Apple platforms' secondary threads is 512 KiB).
func runOnJSONTestThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
}

/// A value written by one thread and read by another after a semaphore handoff.
final class JSONTestMailbox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?

    // `NSLock.withLock` needs macOS 14, so lock and unlock by hand.
    var value: T? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            stored = newValue
        }
    }
}
