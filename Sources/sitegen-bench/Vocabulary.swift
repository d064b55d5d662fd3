/// The words generated reviews are made of: a critic's English, some Korean, names and titles.
enum Vocabulary {
    static let functionWords = words(
        """
        the the the of of and and a a to to in in is it that with as but for on its not this by at
        from his her their more than which what when so even into only one who about all was has
        """)

    static let contentWords = words(
        """
        performance character narrative camera silence memory ambition landscape tenderness cinematography
        dialogue chapter protagonist director novelist structure atmosphere restraint melancholy ending
        opening sequence photographed translation generation household loneliness rhythm patience ambiguity
        confidence longing humour cruelty devotion scenery territory conversation interior attention
        remarkable unhurried deliberate patient luminous understated ambitious generous difficult quietly
        beautifully strangely carefully familiar uncomfortable unforgettable elegant ordinary particular
        reveals remembers wanders refuses discovers questions returns describes considers withholds
        frame scene story voice light winter summer mother father daughter brother village harbour
        city kitchen letter window station garden river island border season photograph stranger promise
        novel film reader viewer audience editor composer score soundtrack montage paragraph sentence
        careful tension heartbreak comedy tragedy thriller romance mystery documentary adaptation memoir
        """)

    static let korean = words(
        """
        영화는 소설은 기억을 천천히 보여 준다 그리고 마지막 장면에서 인물들이 서로를 바라본다 나는
        이 작품을 두 번째로 보고 나서야 감독의 의도를 이해했다 겨울의 바다는 조용하고 차갑다
        문장마다 작가의 목소리가 또렷하게 들린다 가족에 관한 이야기이면서 동시에 도시에 관한
        이야기다 카메라는 오래 머물고 배우들은 말을 아낀다 그 침묵이 오히려 많은 것을 말해 준다
        번역은 매끄럽고 리듬이 살아 있다 처음 한 시간은 느리지만 후반부는 숨이 막힐 만큼 팽팽하다
        """)

    static let headings = [
        "What works", "Where it falls short", "The performances", "On the page", "Verdict", "A second look",
        "Context", "The ending", "Craft", "Why it stays with me",
    ]
    static let koreanHeadings = ["좋았던 점", "아쉬운 점", "배우들", "문장", "총평", "다시 보기"]

    static let tags = [
        "drama", "memory", "family", "city", "war", "love", "crime", "childhood", "politics", "music",
        "friendship", "korea",
    ]
    static let filmGenres = [
        "Drama", "Comedy", "Thriller", "Romance", "Crime", "Science Fiction", "Horror", "Documentary",
    ]
    static let bookGenres = [
        "Fiction", "Literary Fiction", "Essays", "History", "Poetry", "Mystery", "Memoir", "Fantasy",
    ]

    static let titleAdjectives = words(
        """
        Long Quiet Last Silent Burning Hidden Distant Broken Golden Northern Lonely Endless Secret Small
        Winter Summer Little Second Bright Empty Open Paper Glass Falling Borrowed
        """)
    static let titleNouns = words(
        """
        House River Letter Garden Station Harbour Island Season Stranger Promise Window Kitchen Border
        Photograph Mother Daughter Brother Village Night Road Shore Mountain Bridge Field Song Room Door
        """)
    /// Korean title words with the romanized form used for file names.
    static let koreanTitleWords = [
        ("겨울", "gyeoul"), ("바다", "bada"), ("편지", "pyeonji"), ("기차", "gicha"), ("정원", "jeongwon"),
        ("여름", "yeoreum"), ("도시", "dosi"), ("약속", "yaksok"), ("사진", "sajin"), ("부엌", "bueok"),
        ("계절", "gyejeol"), ("섬", "seom"), ("강", "gang"), ("밤", "bam"), ("골목", "golmok"), ("우리", "uri"),
        ("마지막", "majimak"), ("첫", "cheot"), ("작은", "jageun"), ("조용한", "joyonghan"),
    ]

    static let firstNames = words(
        """
        Anna James Min-ji Ji-woo Hae-won Tomas Clara Daniel Yuki Ines Marco Sofia Elena Hyun-woo Ruth
        Samuel Agnes Felix Lena Jonas Mira Oskar Seo-yeon Do-yun Nadia Pavel
        """)
    static let lastNames = words(
        """
        Kim Lee Park Choi Jung Hale Novak Moreau Lindqvist Okafor Tanaka Rossi Weber Costa Haddad Brennan
        Varga Laine Ferreira Santos Kowalski Ibsen Yoon Kang
        """)
    static let publishers = ["Harbour Press", "Northlight Books", "Changbi", "Munhakdongne", "Vintage", "Faber"]

    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map(String.init)
    }
}
