/// The version of sitegen, shown by `sitegen --version` and part of every build manifest.
public enum SiteGenVersion {
    public static let current = "0.2.0"
}
