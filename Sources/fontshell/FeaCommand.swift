import ArgumentParser
import FontModel
import FontScript

/// `fontshell fea FONT FEATURES.fea -o OUT`: compiles a feature file into the font's GSUB, GPOS
/// and GDEF (replacing them, as feaLib does) and saves it.
struct FeaCommand: FontShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "fea",
        abstract: "Compile an AFDKO feature file (.fea) into a font's GSUB, GPOS and GDEF and save it.",
        discussion: """
            The file replaces the face's layout tables, as fontTools' feaLib and makeotf do; a table the \
            file gives nothing is removed. include() reads files only inside --include-dir (default: \
            the feature file's folder). Errors name the file, line and column.
            """)

    @Argument(help: "Font to read.") var font: String
    @Argument(help: "Feature file.") var features: String
    @Option(name: .shortAndLong, help: "Where to save.") var output: String
    @Option(help: "Folder include() may read from (default: the feature file's folder).") var includeDir: String?
    @OptionGroup var selection: FaceSelection
    @Flag(help: "Add the file to the font's layout instead of replacing it (the font's lookups first).") var add = false
    @Flag(help: "Allow OUTPUT to be FONT.") var overwrite = false
    @Flag(help: "Save even if the validator finds errors.") var force = false

    func outcome() throws -> Outcome {
        let f = try Font(path: font)
        let face = try selection.face(in: f)
        guard let text = readFile(features, limit: FeatureFiles.sizeLimit) else {
            throw FontError("cannot read the feature file (missing, unreadable or over 64 MB)", path: features)
        }
        let report = try face.compileFeatures(
            text, file: features, replace: !add,
            readInclude: FeatureFiles.includeReader(allowing: includeDir ?? FeatureFiles.folder(of: features)))
        print(
            "compiled \(features): "
                + (report.written.map { "\($0) (\(report.lookupCounts[$0].map { "\($0) lookups" } ?? "written"))" }
                + report.removed.map { "\($0) removed" }).joined(separator: ", "))
        // As `save` does: with --face, that face alone; else the whole font (a collection stays one).
        let options = SaveOptions(overwriteInput: overwrite, force: force)
        print(selection.face != nil ? try f.save(face: face, to: output, options: options) : try f.save(to: output, options: options))
        return .done
    }
}
