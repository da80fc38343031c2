/// The programs' version, the one place it is written: `tictactoe --version`, `tictactoe-web
/// --version` and the API's hello say it; `make deb` reads it for both packages, and
/// tictactoeTests holds packaging/debian/changelog's latest entry to it.
public enum ProgramVersion {
    public static let current = "0.5.0"
}
