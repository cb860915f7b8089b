/// `FFTM`, FontForge's timestamps: when FontForge itself was built, and when the font's source
/// was created and last changed. Fields as fontTools names them.
public final class FFTMTable: FieldTable {
    public override class var tableTag: Tag { "FFTM" }

    public override class var record: Record { described }

    // swift-format-ignore
    static let described = Record("FFTM", [
        Member("version", .uint32),
        Member("FFTimeStamp", .longDateTime), Member("sourceCreated", .longDateTime), Member("sourceModified", .longDateTime),
    ])
}
