package scenegraph

import (
	"strings"
	"unicode"
)

// scriptLangs lists, per script that names a language by itself, the tag
// written for text in it and the primary language subtags (BCP 47) of the
// languages commonly written in it. A tag already on the text is kept
// when its language is one of these (zh-TW stays zh-TW for Chinese).
var scriptLangs = []struct {
	table *unicode.RangeTable
	tag   string
	langs []string
}{
	{unicode.Arabic, "ar-SA", []string{"ar", "fa", "ur", "ps", "ug", "ku", "sd", "ckb"}},
	{unicode.Hebrew, "he-IL", []string{"he", "yi", "iw"}},
	{unicode.Thai, "th-TH", []string{"th"}},
	{unicode.Devanagari, "hi-IN", []string{"hi", "mr", "ne", "sa", "kok", "mai"}},
	{unicode.Bengali, "bn-IN", []string{"bn", "as"}},
	{unicode.Tamil, "ta-IN", []string{"ta"}},
	{unicode.Cyrillic, "ru-RU", []string{"ru", "uk", "bg", "sr", "mk", "be", "kk", "ky", "mn", "tg", "tt", "ba"}},
	{unicode.Greek, "el-GR", []string{"el"}},
	{unicode.Georgian, "ka-GE", []string{"ka"}},
	{unicode.Armenian, "hy-AM", []string{"hy"}},
}

// TextLang returns the language tag for a run of text s, as DrawingML
// a:rPr/@lang holds it (ECMA-376 Part 1 §21.1.2.3.9, ST_TextLanguageID,
// a BCP 47 tag), given the tag the run already has (tagged, "" for none).
//
// The script with the most letters in s decides. East Asian text is
// ja-JP when it has kana, ko-KR when it has Hangul, else zh-CN; Arabic,
// Hebrew, Thai, Cyrillic, Greek and the other scripts of scriptLangs give
// their usual language. A tag whose language is written in that script
// is kept (zh-TW for Chinese, uk-UA for Cyrillic); any other is replaced
// (en-US on Japanese text becomes ja-JP). Text whose script names no
// language (Latin letters, digits, punctuation) keeps tagged, which may be
// "": the caller writes its default then.
func TextLang(s, tagged string) string {
	var latin, kana, hangul, han int
	counts := make([]int, len(scriptLangs))
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			kana++
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.Is(unicode.Latin, r):
			latin++
		default:
			for i, sl := range scriptLangs {
				if unicode.Is(sl.table, r) {
					counts[i]++
					break
				}
			}
		}
	}
	best, bestN := -1, latin
	if ea := kana + hangul + han; ea > bestN {
		best, bestN = len(scriptLangs), ea
	}
	for i, n := range counts {
		if n > bestN {
			best, bestN = i, n
		}
	}
	var tag string
	var langs []string
	switch {
	case best < 0:
		return tagged
	case best == len(scriptLangs) && kana > 0:
		tag, langs = "ja-JP", []string{"ja"}
	case best == len(scriptLangs) && hangul > 0:
		tag, langs = "ko-KR", []string{"ko"}
	case best == len(scriptLangs):
		tag, langs = "zh-CN", []string{"zh", "ja", "ko"} // Han alone: kanji and hanja too
	default:
		tag, langs = scriptLangs[best].tag, scriptLangs[best].langs
	}
	primary, _, _ := strings.Cut(strings.ToLower(tagged), "-")
	for _, l := range langs {
		if primary == l {
			return tagged
		}
	}
	return tag
}
