import Foundation
import ImageProcessing
import Synchronization

/// Responses shaped like TMDB's, Naver's and Open Library's, written for these tests
/// (with the fields the real services send that sitegen ignores), and tiny images.
enum ProviderFixtures {
    /// `GET /3/movie/496243?append_to_response=credits`: cast out of order, a director
    /// who also wrote it, genres, runtime and a poster.
    static let parasite = """
        {
          "adult": false,
          "backdrop_path": "/TU9NIjwzjoKPwQHoHshkFcQUCG.jpg",
          "belongs_to_collection": null,
          "budget": 11363000,
          "genres": [{"id": 35, "name": "Comedy"}, {"id": 53, "name": "Thriller"}, {"id": 18, "name": "Drama"}],
          "homepage": "https://www.parasite-movie.com/",
          "id": 496243,
          "imdb_id": "tt6751668",
          "original_language": "ko",
          "original_title": "기생충",
          "overview": "All unemployed, Ki-taek's family takes peculiar interest in the wealthy and glamorous Parks.",
          "popularity": 88.412,
          "poster_path": "/7IiTTgloJzvGI1TAYymCfbfl3vT.jpg",
          "production_companies": [{"id": 4399, "logo_path": null, "name": "Barunson E&A", "origin_country": "KR"}],
          "release_date": "2019-05-30",
          "revenue": 257591776,
          "runtime": 133,
          "status": "Released",
          "tagline": "Act like you own the place.",
          "title": "Parasite",
          "video": false,
          "vote_average": 8.5,
          "vote_count": 18512,
          "credits": {
            "cast": [
              {"adult": false, "gender": 2, "id": 20738, "known_for_department": "Acting", "name": "Song Kang-ho",
               "original_name": "송강호", "popularity": 9.1, "profile_path": "/a.jpg", "cast_id": 3,
               "character": "Kim Ki-taek", "credit_id": "5b6a7c", "order": 0},
              {"adult": false, "gender": 1, "id": 1255881, "name": "Cho Yeo-jeong", "character": "Choi Yeon-kyo",
               "order": 2},
              {"adult": false, "gender": 2, "id": 115290, "name": "Lee Sun-kyun", "character": "Park Dong-ik",
               "order": 1},
              {"adult": false, "gender": 1, "id": 1690446, "name": "Lee Jung-eun", "character": "Moon-gwang",
               "order": 5},
              {"adult": false, "gender": 2, "id": 1428817, "name": "Choi Woo-shik", "character": "Kim Ki-woo",
               "order": 3},
              {"adult": false, "gender": 1, "id": 1891574, "name": "Park So-dam", "character": "Kim Ki-jung",
               "order": 4}
            ],
            "crew": [
              {"adult": false, "id": 21684, "name": "Bong Joon-ho", "department": "Writing", "job": "Screenplay"},
              {"adult": false, "id": 21684, "name": "Bong Joon-ho", "department": "Directing", "job": "Director"},
              {"adult": false, "id": 1302082, "name": "Hong Kyung-pyo", "department": "Camera",
               "job": "Director of Photography"}
            ]
          }
        }
        """

    /// A film TMDB knows little about: no poster, an empty release date, `runtime` 0 or null.
    static func sparseFilm(id: Int, runtime: String) -> String {
        """
        {"adult": false, "backdrop_path": null, "genres": [], "id": \(id), "original_title": "Untitled \(id)",
         "overview": "", "poster_path": null, "release_date": "", "runtime": \(runtime), "title": "Untitled \(id)",
         "credits": {"cast": [], "crew": []}}
        """
    }

    /// A film with the fewest fields, for runs of many.
    static func film(id: Int) -> String {
        #"{"id": \#(id), "title": "Film \#(id)", "poster_path": null, "release_date": "2001-01-0\#(id % 9 + 1)"}"#
    }

    /// `GET /3/search/movie`: one result, or none.
    static func search(ids: [Int]) -> String {
        let results = ids.map {
            #"{"adult": false, "id": \#($0), "title": "Parasite", "release_date": "2019-05-30", "poster_path": null}"#
        }
        return #"{"page": 1, "results": [\#(results.joined(separator: ", "))], "total_pages": 1, "#
            + #""total_results": \#(ids.count)}"#
    }

    /// `GET /v1/search/book_adv.json?d_isbn=9788936433598`: markup in the text, two ISBNs,
    /// `pubdate` as YYYYMMDD, two authors joined by `^`, and a cover at `imageURL`.
    static func naverAlmond(imageURL: String) -> String {
        """
        {
          "lastBuildDate": "Sun, 29 Nov 2026 15:00:00 +0900",
          "total": 1,
          "start": 1,
          "display": 1,
          "items": [
            {
              "title": "<b>아몬드</b> (양장)",
              "link": "https://search.shopping.naver.com/book/catalog/32466702191",
              "image": "\(imageURL)",
              "author": "손원평^김 지은",
              "discount": "10800",
              "publisher": "창비 &amp; 친구들",
              "pubdate": "20170331",
              "isbn": "8936433598 9788936433598",
              "description": "<b>감정</b>을 느끼지 못하는 소년 &amp; 그의 &quot;괴물&quot; 친구.\\n  두 소년의 성장."
            }
          ]
        }
        """
    }

    /// The path of the Naver cover in ``naverAlmond(imageURL:)``.
    static let naverCoverPath = "/main_3246670/32466702191.20230725121007.jpg"

    /// `GET /books/OL7928212M.json`, where `/isbn/9781590171998.json` redirects.
    static let stonerEdition = """
        {
          "publishers": ["NYRB Classics"],
          "number_of_pages": 278,
          "isbn_10": ["1590171993"],
          "covers": [8231856],
          "key": "/books/OL7928212M",
          "authors": [{"key": "/authors/OL2625389A"}],
          "title": "Stoner",
          "isbn_13": ["9781590171998"],
          "publish_date": "March 1, 2006",
          "works": [{"key": "/works/OL8000980W"}],
          "type": {"key": "/type/edition"},
          "revision": 12,
          "created": {"type": "/type/datetime", "value": "2008-04-29T13:35:46.876380"}
        }
        """

    /// `GET /works/OL8000980W.json`: `description` as an object.
    static let stonerWork = """
        {
          "title": "Stoner",
          "key": "/works/OL8000980W",
          "authors": [{"author": {"key": "/authors/OL2625389A"}, "type": {"key": "/type/author_role"}}],
          "type": {"key": "/type/work"},
          "description": {"type": "/type/text", "value": "William Stoner is born at the end of the nineteenth century."},
          "subjects": ["Fiction", "College teachers", "Campus life", "Missouri"],
          "covers": [8231856]
        }
        """

    /// `GET /works/OL8000980W.json`: `description` as a plain string, no subjects or covers.
    static let stonerWorkPlain = """
        {"title": "Stoner", "key": "/works/OL8000980W", "description": "A quiet life at a university."}
        """

    /// `GET /authors/OL2625389A.json`.
    static let johnWilliams = """
        {"name": "John Williams", "key": "/authors/OL2625389A", "personal_name": "John Williams",
         "birth_date": "1922", "death_date": "1994", "type": {"key": "/type/author"}}
        """

    /// `GET /search.json?title=Stoner&limit=5&author=John%20Williams`.
    static let stonerSearch = """
        {"numFound": 1, "start": 0, "numFoundExact": true, "docs": [
          {"key": "/works/OL8000980W", "type": "work", "title": "Stoner", "author_name": ["John Williams"],
           "first_publish_year": 1965, "isbn": ["1590171993", "9781590171998"], "cover_i": 8231856,
           "publisher": ["Viking Press", "NYRB Classics"], "number_of_pages_median": 288}
        ]}
        """

    /// A real JPEG of `width` × `height` (a gradient), made once per size: fetch decodes every
    /// image it stores, so a header alone would be refused as cut short.
    static func jpeg(width: Int, height: Int) -> [UInt8] {
        made.withLock { made in
            if let bytes = made[[width, height]] { return bytes }
            var pixels = Data(count: width * height * 3)
            for y in 0..<height {
                for x in 0..<width {
                    let at = (y * width + x) * 3
                    pixels[at] = UInt8((x * 255) / max(1, width - 1))
                    pixels[at + 1] = UInt8((y * 255) / max(1, height - 1))
                    pixels[at + 2] = 128
                }
            }
            let bytes = [UInt8](
                (try? ImageProcessor.encode(rgb: pixels, width: width, height: height, as: .jpeg).data) ?? Data())
            made[[width, height]] = bytes
            return bytes
        }
    }

    /// The JPEGs ``jpeg(width:height:)`` made, by size.
    private static let made = Mutex<[[Int]: [UInt8]]>([:])
}
