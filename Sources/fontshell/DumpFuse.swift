import ArgumentParser
import FontModel
import FontScript
import FontXML
#if canImport(Glibc)
import Glibc
#endif

/// `fontshell dump`: tables as TTX XML (fontTools' dialect), like Apple's ftxdumperfuser -d.
extension Dump {
    /// The plain command lines, read without ArgumentParser's reflection (QuickCommandLine):
    /// half the instructions of `dump FONT -t head`.
    static var quickCommandLine: QuickCommandLine<Dump> {
        QuickCommandLine(
            defaults: {
                var command = Dump()
                (command.tables, command.allFaces, command.output, command.dir, command.fea) = ([], false, nil, nil, false)
                command.selection = FaceSelection.unselected
                return command
            },
            options: [
                .values(["-t"]) { $0.tables.append($1) },
                .value(["--face"]) { $0.selection.face = $1 },
                .flag(["--all-faces"]) { $0.allFaces = true },
                .value(["-o", "--output"]) { $0.output = $1 },
                .value(["--dir"]) { $0.dir = $1 },
                .flag(["--fea"]) { $0.fea = true },
            ],
            operands: { command, operands in
                guard operands.count == 1 else { return false }
                command.font = operands[0]
                return true
            })
    }
}

struct Dump: FontShellCommand {
    static let configuration = CommandConfiguration(commandName: "dump", abstract: "Dump tables as TTX XML (fontTools' dialect).")

    @Argument(help: "Font file.") var font: String
    @Option(name: .customShort("t"), help: "A table to dump (repeatable); default: every table.") var tables: [String] = []
    @OptionGroup var selection: FaceSelection
    @Flag(help: "Every face of a collection (with --dir: one file per face and table).") var allFaces = false
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?
    @Option(help: "Write one file per face and table, named <PostScriptName>.<tag>.ttx, into this folder.") var dir: String?
    @Flag(help: "Write the face's GSUB, GPOS and GDEF as a feature file (.fea) instead of XML.") var fea = false

    func outcome() throws -> Outcome {
        let f = try Font(path: font)
        let faces = allFaces ? f.faces : [try selection.face(in: f)]
        if fea {
            guard faces.count == 1, dir == nil, tables.isEmpty else {
                throw FontError("--fea writes one face's layout: no --all-faces, --dir or -t")
            }
            let text = try faces[0].featureFileText()
            if let output { try writeText(text, to: output) } else { print(text, terminator: "") }
            return .done
        }
        let tags = try tables.map { text -> Tag in
            guard let t = Tag(string: text) else { throw FontError("'\(text)' is not a table tag") }
            return t
        }
        // A bar on a terminal: the files written, or the share of the face's dump.
        let progress = BatchProgress(total: 0, label: "fontshell dump", unit: dir != nil ? "files" : "%")
        defer { progress.done(summary: false) }
        if let dir {
            mkdir(dir, 0o755)
            let tagsByFace = faces.map { tags.isEmpty ? $0.tags : tags }
            let fileCount = tagsByFace.joined().count
            var written = 0
            for (fc, faceTags) in zip(faces, tagsByFace) {
                let name = Dump.fileStem(fc)
                for tag in faceTags {
                    // The PostScript name and the tag come from the font: made safe, so every
                    // file lands in the folder; a link planted at such a name is refused.
                    let file = "\(SafeFileName.from("\(name).\(tag.trimmed)")).ttx"
                    progress.update(done: written, total: fileCount, current: file)
                    try writeText(try TTX.dump(fc, tags: [tag]), to: dir + "/" + file, followSymlinks: false)
                    written += 1
                }
            }
            return .done
        }
        guard faces.count == 1 else { throw FontError("--all-faces needs --dir (one file per face and table)") }
        // On every core, the face's own tables opened afresh per thread (an unedited face
        // from its file); to a file atomically (a failed dump leaves no file).
        let show = { (done: Int, total: Int, next: Tag?) in
            progress.update(done: done, total: total, current: next.map { "<\($0.trimmed)>" })
        }
        if let output {
            try AtomicFile.write(to: output) { fd in
                try TTX.dump(
                    path: font, face: faces[0].index, tags: tags.isEmpty ? nil : tags,
                    piece: { piece in
                        var piece = piece
                        try piece.withUTF8 { try AtomicFile.writeAll(fd, UnsafeRawBufferPointer($0)) }
                    }, progress: show)
            }
        } else {
            // Whole, so an error prints nothing rather than half a document.
            var pieces: [String] = []
            try TTX.dump(path: font, face: faces[0].index, tags: tags.isEmpty ? nil : tags, piece: { pieces.append($0) }, progress: show)
            progress.done(summary: false)
            for piece in pieces { print(piece, terminator: "") }
        }
        return .done
    }
}

extension Dump {
    /// The start of a face's file names in `--dir` (what fuse --dir looks for): its PostScript
    /// name made a safe file name (a font named "../../x" must not send files out of the folder).
    static func fileStem(_ face: Face) -> String {
        SafeFileName.from(((try? face.postScriptName) ?? nil) ?? "face\(face.index)", fallback: "face\(face.index)")
    }
}

/// `fontshell fuse`: fuse TTX XML back into a font, like ftxdumperfuser -f.
struct Fuse: FontShellCommand {
    static let configuration = CommandConfiguration(commandName: "fuse", abstract: "Fuse TTX XML tables into a font and save it.")

    @Argument(help: "Font file.") var font: String
    @Argument(help: "TTX files with the tables to fuse.") var xmlFiles: [String] = []
    @Option(help: "Fuse each face's files <PostScriptName>.<tag>.ttx from this folder (what dump --dir writes).") var dir: String?
    @OptionGroup var selection: FaceSelection
    @Flag(help: "Fuse into every face of a collection.") var allFaces = false
    @Option(name: .shortAndLong, help: "Where to save.") var output: String?
    @Flag(help: "Save over the input font.") var inPlace = false
    @Flag(help: "Save even if the validator finds errors the fused tables introduced.") var force = false

    func outcome() throws -> Outcome {
        guard output != nil || inPlace else { throw ValidationError("give -o OUTPUT or --in-place") }
        guard !xmlFiles.isEmpty || dir != nil else { throw ValidationError("give TTX files or --dir") }
        let f = try Font(path: font)
        let faces = allFaces || dir != nil ? f.faces : [try selection.face(in: f)]
        // A bar on a terminal: each file read, each table checked and fused, then the save
        // (a CJK collection's dump is a gigabyte).
        let folderFiles = dir.map(listFolder) ?? []
        let progress = BatchProgress(
            total: folderFiles.filter { $0.hasSuffix(".ttx") }.count + xmlFiles.count + 1, label: "fontshell fuse", unit: "steps")
        defer { progress.done(summary: false) }
        var steps = 0
        func step(_ doing: String? = nil) { steps += 1; progress.update(done: steps, total: max(progress.total, steps), current: doing) }
        /// Parses a file (one step) and counts its tables' steps, for each face it goes into.
        func fileName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
        func read(_ path: String, into faceCount: Int) throws -> XMLElement {
            progress.update(done: steps, total: progress.total, current: "reading " + fileName(path))
            guard let bytes = readFile(path) else { throw FontError("cannot read \(path)") }
            do {
                let document = try TTX.parse(bytes: bytes)
                progress.total += 2 * document.children.count * faceCount
                step()
                return document
            } catch var e as XMLError {
                e.file = path
                throw e
            }
        }
        func fuse(_ document: XMLElement, _ path: String, into face: Face) throws {
            let file = fileName(path)
            do {
                try TTX.fuse(document, into: face) { table, applying in
                    step((applying ? "fusing " : "checking ") + "<\(table.name)> of " + file)
                }
            } catch var e as XMLError {
                e.file = path
                throw e
            }
        }
        progress.update(done: 0, total: progress.total)
        if let dir {
            for fc in faces {
                let prefix = Dump.fileStem(fc) + "."
                for name in folderFiles where name.hasPrefix(prefix) && name.hasSuffix(".ttx") {
                    let path = dir + "/" + name
                    try fuse(try read(path, into: 1), path, into: fc)
                }
            }
        }
        for file in xmlFiles {
            let document = try read(file, into: faces.count)
            for fc in faces { try fuse(document, file, into: fc) }
        }
        progress.update(done: steps, total: progress.total, current: "saving")
        let report = try f.save(to: output ?? font, options: SaveOptions(overwriteInput: inPlace, force: force))
        progress.done(summary: false)
        print(report)
        return .done
    }
}

/// Writes text atomically (a partial dump never replaces a good file; an input font is never replaced).
func writeText(_ text: String, to path: String, followSymlinks: Bool = true) throws {
    var text = text
    try text.withUTF8 { try AtomicFile.write(UnsafeRawBufferPointer($0), to: path, followSymlinks: followSymlinks) }
}
