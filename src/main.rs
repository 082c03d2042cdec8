//! The `strake` binary: parses the command line and hands it to [`strake::cli`].

fn main() -> std::process::ExitCode {
    strake::cli::main()
}
