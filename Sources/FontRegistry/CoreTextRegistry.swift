#if canImport(CoreText)
import CoreText
import Foundation

/// The registry over CoreText's font manager (macOS). It cannot run on the Linux machines this
/// project is developed and tested on, so it is kept small: register/unregister by URL in the
/// process, user (persistent) or session scope, and queries through font descriptors.
public final class CoreTextRegistry: FontRegistry {
    public init() {}

    private func ctScope(_ scope: RegistryScope) -> CTFontManagerScope {
        switch scope {
        case .process: .process
        case .user: .persistent
        case .session: .session
        }
    }

    public func register(path: String, scope: RegistryScope, replace: Bool) throws -> [FontDescriptor] {
        let names = try validatedPostScriptNames(path)
        for name in names where try find(name) != nil && !replace {
            throw RegistryError("PostScript name \(name) is already registered")
        }
        var error: Unmanaged<CFError>?
        guard CTFontManagerRegisterFontsForURL(URL(fileURLWithPath: path) as CFURL, ctScope(scope), &error) else {
            throw RegistryError("CoreText refused \(path): \(error?.takeRetainedValue().localizedDescription ?? "unknown error")")
        }
        return try names.compactMap { try find($0) }
    }

    /// CoreText keeps its own record of registrations and FontShell copies nothing on macOS.
    public func repair() throws -> RegistryRepair { RegistryRepair() }

    public func unregister(_ pathOrName: String) throws -> [FontDescriptor] {
        let url: URL
        if pathOrName.hasPrefix("/") {
            url = URL(fileURLWithPath: pathOrName)
        } else if let d = try find(pathOrName) {
            url = URL(fileURLWithPath: d.path)
        } else {
            throw RegistryError("no registered font matches '\(pathOrName)'")
        }
        var error: Unmanaged<CFError>?
        for scope in [CTFontManagerScope.process, .persistent, .session] {
            if CTFontManagerUnregisterFontsForURL(url as CFURL, scope, &error) { return [] }
        }
        throw RegistryError(
            "\(pathOrName) was not registered by FontShell (or CoreText refused): \(error?.takeRetainedValue().localizedDescription ?? "")")
    }

    public func list(scope: RegistryScope?, family: String?) throws -> [FontDescriptor] {
        let collection = CTFontCollectionCreateFromAvailableFonts(nil)
        let descriptors = (CTFontCollectionCreateMatchingFontDescriptors(collection) as? [CTFontDescriptor]) ?? []
        return descriptors.compactMap(describe).filter { family == nil || $0.family == family }
    }

    public func find(_ name: String) throws -> FontDescriptor? {
        try list(scope: nil, family: nil).first { $0.postScriptName == name || $0.fullName == name }
    }

    public func missing(_ names: [String]) throws -> [MissingFont] {
        try names.compactMap { try find($0) == nil ? MissingFont(name: $0, fallback: nil) : nil }
    }

    public func systemFont(design: String) throws -> FontDescriptor? {
        let font = CTFontCreateUIFontForLanguage(.system, 13, nil)
        return font.map { describe(CTFontCopyFontDescriptor($0)) } ?? nil
    }

    public func changed() -> Bool { false }

    private func describe(_ d: CTFontDescriptor) -> FontDescriptor? {
        func attribute(_ key: CFString) -> String? { CTFontDescriptorCopyAttribute(d, key) as? String }
        guard let name = attribute(kCTFontNameAttribute) else { return nil }
        let url = CTFontDescriptorCopyAttribute(d, kCTFontURLAttribute) as? URL
        return FontDescriptor(
            postScriptName: name, fullName: attribute(kCTFontDisplayNameAttribute) ?? name,
            family: attribute(kCTFontFamilyNameAttribute) ?? "", style: attribute(kCTFontStyleNameAttribute) ?? "",
            weight: 0, width: 0, path: url?.path ?? "", faceIndex: 0, scope: nil, registeredByFontShell: false)
    }
}
#endif
