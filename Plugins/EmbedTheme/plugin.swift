import Foundation
import PackagePlugin

/// Builds the default theme into sitegen: every file under the package's `Templates/`
/// folder becomes part of a generated Swift source, so there is one copy of the theme.
@main
struct EmbedTheme: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let theme = context.package.directoryURL.appendingPathComponent("Templates")
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("DefaultTheme.swift")
        var inputs: [URL] = []
        if let enumerator = FileManager.default.enumerator(at: theme, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in enumerator
            where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                inputs.append(url)
            }
        }
        return [
            .buildCommand(
                displayName: "Embedding the default theme (\(inputs.count) files)",
                executable: try context.tool(named: "theme-embedder").url,
                arguments: [theme.path, output.path],
                inputFiles: inputs.sorted { $0.path < $1.path },
                outputFiles: [output])
        ]
    }
}
