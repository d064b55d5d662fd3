/// The named character references exported reviews use: the XML five, spaces and dashes,
/// quotation marks, and the Latin letters and symbols common in reviews.
enum HTMLEntities {
    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "ensp": "\u{2002}",
        "emsp": "\u{2003}", "thinsp": "\u{2009}", "shy": "\u{AD}", "zwj": "\u{200D}", "zwnj": "\u{200C}",
        "ndash": "–", "mdash": "—", "hellip": "…", "bull": "•", "middot": "·", "lsquo": "‘", "rsquo": "’",
        "sbquo": "‚", "ldquo": "“", "rdquo": "”", "bdquo": "„", "laquo": "«", "raquo": "»", "lsaquo": "‹",
        "rsaquo": "›", "prime": "′", "Prime": "″", "copy": "©", "reg": "®", "trade": "™", "deg": "°", "plusmn": "±",
        "times": "×", "divide": "÷", "frac12": "½", "frac14": "¼", "frac34": "¾", "sup1": "¹", "sup2": "²",
        "sup3": "³", "micro": "µ", "para": "¶", "sect": "§", "cent": "¢", "pound": "£", "euro": "€", "yen": "¥",
        "curren": "¤", "iexcl": "¡", "iquest": "¿", "dagger": "†", "Dagger": "‡", "permil": "‰", "larr": "←",
        "rarr": "→", "uarr": "↑", "darr": "↓", "harr": "↔", "hearts": "♥", "spades": "♠", "clubs": "♣",
        "diams": "♦", "star": "☆", "ordf": "ª", "ordm": "º", "not": "¬", "macr": "¯", "acute": "´", "uml": "¨",
        "cedil": "¸", "szlig": "ß", "AElig": "Æ", "aelig": "æ", "OElig": "Œ", "oelig": "œ", "Oslash": "Ø",
        "oslash": "ø", "Aring": "Å", "aring": "å", "ETH": "Ð", "eth": "ð", "THORN": "Þ", "thorn": "þ",
        "Agrave": "À", "Aacute": "Á", "Acirc": "Â", "Atilde": "Ã", "Auml": "Ä", "agrave": "à", "aacute": "á",
        "acirc": "â", "atilde": "ã", "auml": "ä", "Ccedil": "Ç", "ccedil": "ç", "Egrave": "È", "Eacute": "É",
        "Ecirc": "Ê", "Euml": "Ë", "egrave": "è", "eacute": "é", "ecirc": "ê", "euml": "ë", "Igrave": "Ì",
        "Iacute": "Í", "Icirc": "Î", "Iuml": "Ï", "igrave": "ì", "iacute": "í", "icirc": "î", "iuml": "ï",
        "Ntilde": "Ñ", "ntilde": "ñ", "Ograve": "Ò", "Oacute": "Ó", "Ocirc": "Ô", "Otilde": "Õ", "Ouml": "Ö",
        "ograve": "ò", "oacute": "ó", "ocirc": "ô", "otilde": "õ", "ouml": "ö", "Ugrave": "Ù", "Uacute": "Ú",
        "Ucirc": "Û", "Uuml": "Ü", "ugrave": "ù", "uacute": "ú", "ucirc": "û", "uuml": "ü", "Yacute": "Ý",
        "yacute": "ý", "yuml": "ÿ", "Scaron": "Š", "scaron": "š", "Zcaron": "Ž", "zcaron": "ž",
    ]
}
