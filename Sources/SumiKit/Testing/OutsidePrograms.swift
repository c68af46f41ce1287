/// Whether a test may start an outside program (ImageMagick, python3, mutool…). `make check` sets
/// `SUMI_CHECK_NO_TOOLS=1` (`variable`): it runs no outside program (a test that compares with one
/// lives in a suite named *ReferenceTests, which `make test` runs and `make check` skips). Each
/// test target's tool helper reads the variable (SumiKit reads no environment) and throws
/// `Refused`, so the rule and its message are written once.
public enum OutsidePrograms {
    /// The variable `make check` sets to 1.
    public static let variable = "SUMI_CHECK_NO_TOOLS"

    /// The error of a test that would start `program` under `make check`.
    public struct Refused: Error, CustomStringConvertible {
        public let description: String

        public init(starting program: String) {
            description = "make check runs no outside program (\(OutsidePrograms.variable)=1), but this test starts \(program): "
                + "move it to a suite named *ReferenceTests or make its input in-process"
        }
    }
}
