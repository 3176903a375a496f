import Container
import StorageAudit
import Testing

/// The audit's totals against `du -B1` on the same trees: allocated blocks
/// and apparent sizes, a hard link counted once, a sparse file by its
/// blocks.
@Suite struct DuTotalsTests {
    /// Documents with a hard link inside it and one into Caches, a sparse
    /// file, a symbolic link, Application Support, Caches, tmp and the bundle.
    static func tree() throws -> AuditFixture {
        let fixture = try AuditFixture()
        try fixture.write("Documents/notes.txt", bytes: 10_000)
        try fixture.write("Documents/Deep/er/photo.jpg", bytes: 70_000)
        try fixture.write("Library/Application Support/db.bin", bytes: 123_457)
        try fixture.write("Library/Caches/img/1.png", bytes: 5_000)
        try fixture.write("Library/Preferences/x.plist", bytes: 300)
        try fixture.write("tmp/scratch", bytes: 9_999)
        try fixture.writeIntoBundle("Fixture", .init(repeating: 1, count: 4_321))
        try fixture.shell("ln Documents/notes.txt Documents/notes-link.txt && ln Documents/notes.txt Library/Caches/hard.txt"
                          + " && ln -s notes.txt Documents/symlink"
                          + " && dd if=/dev/zero of=Documents/sparse.bin bs=4096 count=1 seek=2048 conv=notrunc status=none")
        return fixture
    }

    @Test func totalsEqualDu() throws {
        let fixture = try Self.tree()
        let audit = try fixture.audit()
        #expect(audit.total.allocatedBytes == (try fixture.du("")))
        #expect(audit.total.apparentBytes == (try fixture.du("", apparent: true)))
        // The sparse file counts its blocks: far fewer than its 8 MB.
        #expect(audit.total.apparentBytes > 8 << 20)
        #expect(audit.total.allocatedBytes < 4 << 20)
    }

    @Test func categoriesEqualDuOfTheirDirectories() throws {
        let fixture = try Self.tree()
        let audit = try fixture.audit()
        // Documents is walked first, so the hard link into Caches counts there.
        for (category, path) in [(StorageCategory.documents, "Documents"), (.applicationSupport, "Library/Application Support"),
                                 (.tmp, "tmp"), (.bundle, "Fixture.app")] {
            #expect(audit.usage(of: category).allocatedBytes == (try fixture.du(path)), "\(category)")
            #expect(audit.usage(of: category).apparentBytes == (try fixture.du(path, apparent: true)), "\(category)")
        }
        let hardLinkFreeCaches = try fixture.du("Library/Caches") - (try fixture.du("Documents/notes.txt"))
        #expect(audit.usage(of: .caches).allocatedBytes == hardLinkFreeCaches)
    }

    /// Names that are not UTF-8 (a file, and a directory with a file in
    /// it) are counted as du counts them, left out of the backup figures as
    /// a backup leaves them out, and named in a note.
    @Test func namesThatAreNotUTF8AreCountedAndNamed() throws {
        let fixture = try Self.tree()
        try fixture.shell("printf 'abcdef' > \"$(printf 'Documents/bad\\377name.txt')\""
                          + " && mkdir \"$(printf 'Documents/dir\\376')\" && head -c 5000 /dev/zero > \"$(printf 'Documents/dir\\376/inner.bin')\"")
        let audit = try fixture.audit()
        #expect(audit.total.allocatedBytes == (try fixture.du("")))
        #expect(audit.total.apparentBytes == (try fixture.du("", apparent: true)))
        #expect(audit.usage(of: .documents).backupBytes == 10_000 + 70_000 + 8 * 1024 * 1024 + 4096 + 9)
        let note = audit.notes.first { $0.contains("not valid UTF-8") }
        #expect(note?.contains("3 items") == true, "\(audit.notes)")
        #expect(note?.contains("Documents/bad\u{FFFD}name.txt") == true, "\(audit.notes)")
    }

    @Test func backupPurgeAndUpdateFollowTheRules() throws {
        let fixture = try Self.tree()
        try fixture.write("Library/Application Support/Offline/map.bin", bytes: 2_000)
        try fixture.container.setExcludedFromBackup(true, at: "Library/Application Support/Offline")
        let audit = try fixture.audit()
        // Backed up: files and links in Documents, Library (not Caches) — the
        // flagged folder left out; nothing of the bundle, Caches or tmp.
        let documents = audit.usage(of: .documents)
        #expect(documents.backupBytes == 10_000 + 70_000 + 8 * 1024 * 1024 + 4096 + 9)  // notes, photo, sparse, symlink
        #expect(audit.usage(of: .applicationSupport).backupBytes == 123_457)
        #expect(audit.usage(of: .library).backupBytes == 300)
        for category in [StorageCategory.caches, .tmp, .bundle] { #expect(audit.usage(of: category).backupBytes == 0) }
        // A purge frees what is below Caches and tmp, not the folders.
        #expect(audit.total.purgeableBytes == audit.usage(of: .caches).allocatedBytes - (try fixture.ownBlocks("Library/Caches"))
                + audit.usage(of: .tmp).allocatedBytes - (try fixture.ownBlocks("tmp")))
        // An update keeps everything but the bundle and tmp.
        #expect(audit.total.keptByUpdateBytes == audit.total.allocatedBytes - audit.usage(of: .bundle).allocatedBytes
                - audit.usage(of: .tmp).allocatedBytes)
    }
}
