import ImageProcessing

extension ReviewImage {
    /// The variants in the image's own format (JPEG or PNG; WebP for a WebP original), smallest first.
    var fallbacks: [ImageVariant] {
        let webp = variants.filter { $0.format == .webp }
        let others = variants.filter { $0.format != .webp }
        return others.isEmpty ? webp : others
    }

    /// The WebP variants offered before the fallbacks; empty when the original is WebP.
    var webpSources: [ImageVariant] {
        fallbacks.first?.format == .webp ? [] : variants.filter { $0.format == .webp }
    }

    /// The model templates place in `<picture>`: the fallback at the width closest above
    /// 480 (a 2x card) as `src`, every width in `srcset`, and WebP in `webpSrcset`.
    func model(urls: URLs, alt: String) -> ImageModel? {
        let fallbacks = self.fallbacks
        guard let main = fallbacks.first(where: { $0.width >= 480 }) ?? fallbacks.last else { return nil }
        let srcset = { (variants: [ImageVariant]) in
            variants.map { "\(urls.path($0.path)) \($0.width)w" }.joined(separator: ", ")
        }
        return ImageModel(
            url: urls.path(main.path), srcset: srcset(fallbacks), webpSrcset: srcset(webpSources), alt: alt,
            width: main.width, height: main.height)
    }

    /// The largest fallback, for link previews (`og:image`) and structured data.
    func socialImage(urls: URLs, alt: String) -> SocialImage? {
        guard let largest = fallbacks.last else { return nil }
        return SocialImage(url: urls.absolute(largest.path), width: largest.width, height: largest.height, alt: alt)
    }
}
