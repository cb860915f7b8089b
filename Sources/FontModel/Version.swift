/// FontShell's version: `fontshell --version`, `fontshell.version` in Lua.
public enum FontShellVersion {
    public static let string = "0.2.0"
}
