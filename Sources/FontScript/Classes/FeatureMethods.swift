import FontModel
import LuaBridge

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// face:addFeatures(text or path [, {includeDir = FOLDER}]): compiles a feature file into the
/// face's GSUB, GPOS and GDEF (replacing them, as `fontshell fea` does).
///
///     local r = face:addFeatures[[ feature liga { sub f i by f_i; } liga; ]]
///     print(r.GSUB)   -- lookups built; r.written, r.removed list the tables
enum FeatureMethods {
    /// face:fea() → the face's GSUB, GPOS and GDEF as feature-file text.
    static let fea: LuaFunction = { L in
        LuaCall.run(L, "fea") { call in
            let face = try call.methodSelf(FaceObject.className, as: FaceRef.self).get()
            call.stack.push(try face.featureFileText())
            return 1
        }
    }

    static let addFeatures: LuaFunction = { L in
        LuaCall.run(L, "addFeatures") { call in
            let face = try call.methodSelf(FaceObject.className, as: FaceRef.self).get()
            let source = try call.string(2)
            try call.options(3, ["includeDir", "replace"])
            let replace = try call.boolOption(3, "replace", default: true)
            // A string naming a .fea file is read; anything else is feature-file text.
            let isPath = source.hasSuffix(".fea") && !source.contains("\n") && !source.contains(";")
            let text: [UInt8]
            if isPath {
                guard let bytes = readFile(source, limit: FeatureFiles.sizeLimit) else {
                    throw FontError("cannot read the feature file (missing, unreadable or over 64 MB)", path: source)
                }
                text = bytes
            } else {
                text = Array(source.utf8)
            }
            let folder = try call.stringOption(3, "includeDir") ?? (isPath ? FeatureFiles.folder(of: source) : ".")
            let report = try face.compileFeatures(
                text, file: isPath ? source : "<features>", replace: replace, readInclude: FeatureFiles.includeReader(allowing: folder))
            let s = call.stack
            s.pushTable(fieldCount: 4)
            s.push(strings: report.written); s.setField("written", in: -2)
            s.push(strings: report.removed); s.setField("removed", in: -2)
            for (tag, n) in report.lookupCounts.sorted(by: { $0.key < $1.key }) {
                s.push(n); s.setField(tag, in: -2)
            }
            return 1
        }
    }
}

/// Reading feature files and what they include.
public enum FeatureFiles {
    /// A feature file or an included one larger than this is refused (feaLib has no limit;
    /// the biggest real ones are a few megabytes).
    public static let sizeLimit = 64 << 20

    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Reads `include(name)` relative to `folder`, refusing anything that resolves outside it.
    public static func includeReader(allowing folder: String) -> (String, FeatureLocation) throws -> (bytes: [UInt8], file: String) {
        { name, at in
            guard let root = realPath(folder) else {
                throw FeatureFileError("include(\(name)): the include folder '\(folder)' does not exist", at)
            }
            let candidate = name.hasPrefix("/") ? name : folder + "/" + name
            guard let resolved = realPath(candidate) else { throw FeatureFileError("include(\(name)): no such file", at) }
            guard resolved.hasPrefix(root == "/" ? "/" : root + "/") else {
                throw FeatureFileError("include(\(name)): outside the folder includes may read (\(folder)); see --include-dir", at)
            }
            guard let bytes = readFile(resolved, limit: sizeLimit) else { throw FeatureFileError("include(\(name)): cannot read it", at) }
            return (bytes, candidate)
        }
    }
}
