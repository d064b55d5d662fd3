/// The attributes of a tag that say where it leads or what it is called; others are skipped
/// without being decoded. The first of a repeated name wins.
struct TagAttributes {
    var href: String?
    var src: String?
    var srcset: String?
    var id: String?
    var name: String?
    var rel: String?
    var property: String?
    var content: String?
    var poster: String?
    var data: String?
    var type: String?
    /// A feed element's `xml:base`: the URL its content's relative URLs resolve against.
    var xmlBase: String?

    /// Where the value of the attribute `name` goes; nil for one that is not kept.
    static func slot(_ name: String) -> WritableKeyPath<TagAttributes, String?>? {
        switch name {
        case "href": \.href
        case "src": \.src
        case "srcset": \.srcset
        case "id": \.id
        case "name": \.name
        case "rel": \.rel
        case "property": \.property
        case "content": \.content
        case "poster": \.poster
        case "data": \.data
        case "type": \.type
        case "xml:base": \.xmlBase
        default: nil
        }
    }
}
