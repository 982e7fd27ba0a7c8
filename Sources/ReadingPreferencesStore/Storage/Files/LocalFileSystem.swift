import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether an open file lives on a local file system whose rename over an open file is plain
/// (``ReplacedFiles``): ext4, XFS, Btrfs, F2FS, ZFS, bcachefs, tmpfs and overlayfs on Linux,
/// APFS and HFS+ on Apple platforms. On another (NFS renames an open file aside as `.nfs…`
/// first, a network share may refuse), a save closes the file before its rename, as it always
/// did.
enum LocalFileSystem {
    /// Whether the file open at `descriptor` is on a listed local file system; `false` when its
    /// file system cannot be told.
    static func holds(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            var info = statfs()
            guard fstatfs(descriptor, &info) == 0 else { return false }
            let name = withUnsafeBytes(of: info.f_fstypename) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return name == "apfs" || name == "hfs"
        #else
            // Swift's Glibc module leaves out <sys/vfs.h>, so `fstatfs` is found at run time. Its
            // `struct statfs` begins with `f_type`, a C `long`, on every Linux architecture.
            guard let fstatfs = systemFStatFS else { return false }
            return withUnsafeTemporaryAllocation(byteCount: 512, alignment: 16) { buffer in
                guard let base = buffer.baseAddress, fstatfs(descriptor, base) == 0 else { return false }
                let type = base.load(as: Int.self)
                return localMagics.contains(UInt64(truncatingIfNeeded: Int64(type)) & 0xFFFF_FFFF)
            }
        #endif
    }

    #if !canImport(Darwin)
        /// The C library's `fstatfs`, or `nil` where it cannot be found.
        private static let systemFStatFS: (@convention(c) (Int32, UnsafeMutableRawPointer) -> Int32)? = {
            guard let library = dlopen(nil, RTLD_NOW), let symbol = dlsym(library, "fstatfs") else {
                return nil
            }
            return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafeMutableRawPointer) -> Int32).self)
        }()

        /// The `f_type` of the local file systems listed (linux/magic.h).
        private static let localMagics: Set<UInt64> = [
            0xEF53,  // ext2, ext3, ext4
            0x5846_5342,  // XFS
            0x9123_683E,  // Btrfs
            0xF2F5_2010,  // F2FS
            0x2FC1_2FC1,  // ZFS
            0xCA45_1A4E,  // bcachefs
            0x0102_1994,  // tmpfs
            0x794C_7630,  // overlayfs (a container's own files)
        ]
    #endif
}
