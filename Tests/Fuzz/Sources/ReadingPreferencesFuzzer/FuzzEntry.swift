import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// libFuzzer's entry point: every input goes through decoding, a short edit sequence derived
/// from its bytes, and resolution for every configurable, then CSS and the settings form for
/// EPUB. Any trap, leak or hang is a finding; so is a broken law (`FuzzCheck.require`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var run = FuzzRun(bytes: bytes)
    run.exerciseAll()
    return 0
}

/// Called once by libFuzzer before the first input: runs every code path once with leak
/// detection off, so that the library's lazily built globals (catalogues, descriptors, tables)
/// exist before fuzzing starts. Otherwise LeakSanitizer reports them: it cannot see Swift's
/// tagged enum payload pointers held by globals as references.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
    let disable = leakSanitizerFunction("__lsan_disable")
    let enable = leakSanitizerFunction("__lsan_enable")
    disable?()
    FuzzRun.warmUp()
    enable?()
    return 0
}

/// A LeakSanitizer interface function, when the sanitizer is linked in.
private func leakSanitizerFunction(_ name: String) -> (@convention(c) () -> Void)? {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)
}
