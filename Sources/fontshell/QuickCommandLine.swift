import ArgumentParser

/// A reflection-free reader for the plain command lines of commands that scripts and build
/// systems run over and over (`instance`, `subset`, `run`, `dump`, `info`, `edit`, and the
/// REPL's `-e` chunks and scripts).
///
/// ArgumentParser learns a command's options by reflection: `Mirror` over the command, and for
/// each new type it meets a protocol-conformance lookup that scans every conformance record of
/// the binary. For `instance` that is about 3 ms of a 16 ms process, more than the glyph work
/// on one core. This reader knows one spelling of each option (`--name VALUE`, `-o VALUE`,
/// `--flag`) and gives up, returning nil, on anything else: help, `--version`, an unknown or
/// repeated option, `--name=VALUE`, `--`, a value that looks like an option, a missing operand,
/// a command that fails `validate()`. ArgumentParser then parses the same arguments as usual,
/// so help, error messages and every other spelling stay its own. `QuickCommandLineTests`
/// checks that the two read every plain command line alike and that every property is set.
///
/// `Command` carries no `ParsableCommand` requirement on the type itself: building the
/// options' metadata would then check it at run time, another scan; `parse` asks for it.
struct QuickCommandLine<Command> {
    enum Option {
        /// `--name`: sets a Boolean property.
        case flag([String], (inout Command) -> Void)
        /// `--name VALUE`: sets a property from the value as typed; throws (and the reader
        /// gives up) when the value does not convert.
        case value([String], (inout Command, String) throws -> Void)
        /// `--name VALUE`, which may be given more than once (`-e CHUNK`).
        case values([String], (inout Command, String) -> Void)
    }

    /// The command with every property at its default (properties ArgumentParser has not
    /// parsed cannot be read, so each one must be set here).
    let defaults: () -> Command
    let options: [Option]
    /// Sets the positional properties from the operands in order; false when their count does
    /// not fit.
    let operands: (inout Command, [String]) -> Bool
    /// Everything after the first operand is an operand too, options included (`run`'s script
    /// takes the rest of the line, as ArgumentParser's `.captureForPassthrough` reads it).
    var restAfterFirstOperand = false
}

extension QuickCommandLine where Command: ParsableCommand {
    func parse(_ arguments: [String]) -> Command? {
        var command = defaults()
        var operands: [String] = []
        var seen: [String] = []   // not a Set: its first use costs a conformance scan
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            guard argument.hasPrefix("-") else {
                operands.append(argument)
                if restAfterFirstOperand {
                    operands += arguments[i...]
                    break
                }
                continue
            }
            guard let option = options.first(where: { $0.names.contains(argument) }), !seen.contains(option.names[0]) else {
                return nil
            }
            switch option {
            case .flag(_, let set):
                set(&command)
                seen.append(option.names[0])
            case .value(_, let set):
                guard i < arguments.count, !arguments[i].hasPrefix("-"), (try? set(&command, arguments[i])) != nil else { return nil }
                i += 1
                seen.append(option.names[0])
            case .values(_, let add):
                guard i < arguments.count, !arguments[i].hasPrefix("-") else { return nil }
                add(&command, arguments[i])
                i += 1
            }
        }
        guard self.operands(&command, operands), (try? command.validate()) != nil else { return nil }
        return command
    }
}

extension QuickCommandLine.Option {
    var names: [String] {
        switch self {
        case .flag(let names, _), .value(let names, _), .values(let names, _): names
        }
    }
}

/// The command a command line names, read without ArgumentParser when it has a quick reader
/// and the line is plain.
func quickCommand(_ arguments: [String]) -> (any ParsableCommand)? {
    guard let name = arguments.first else { return Repl.quickCommandLine.parse([]) }
    let rest = Array(arguments.dropFirst())
    switch name {
    case "instance": return InstanceCommand.quickCommandLine.parse(rest)
    case "subset": return SubsetCommand.quickCommandLine.parse(rest)
    case "run": return Run.quickCommandLine.parse(rest)
    case "repl": return Repl.quickCommandLine.parse(rest)
    case "dump": return Dump.quickCommandLine.parse(rest)
    case "info": return Info.quickCommandLine.parse(rest)
    case "edit": return Edit.quickCommandLine.parse(rest)
    default:
        // A first word that names no command starts the default one, the REPL (`fontshell -e
        // CHUNK`, `fontshell script.lua`), as ArgumentParser reads it.
        return FontShell.commandNames.contains(name) || name == "help" ? nil : Repl.quickCommandLine.parse(arguments)
    }
}
