package scenegraph

import "testing"

func TestTextLangFollowsTheScriptAndKeepsAFittingTag(t *testing.T) {
	for _, c := range []struct {
		name, text, tagged, want string
	}{
		{"Japanese with kana is ja-JP", "東京の新しいオフィスでは、チーム全員が集まります。", "", "ja-JP"},
		{"an en-US tag on Japanese text gives way", "プロジェクトを進めます", "en-US", "ja-JP"},
		{"Korean is ko-KR", "분기별 실적 보고서", "en-US", "ko-KR"},
		{"Han alone is Chinese", "季度业绩报告", "", "zh-CN"},
		{"a Chinese tag stays on Chinese text", "季度業績報告", "zh-TW", "zh-TW"},
		{"a Japanese tag stays on kanji alone", "会議室", "ja-JP", "ja-JP"},
		{"Arabic is ar-SA", "تقرير الأداء الفصلي", "en-US", "ar-SA"},
		{"a Persian tag stays on Arabic script", "گزارش فصلی", "fa-IR", "fa-IR"},
		{"Hebrew is he-IL", "דוח רבעוני", "", "he-IL"},
		{"Russian is ru-RU", "Квартальный отчёт", "en-US", "ru-RU"},
		{"a Ukrainian tag stays on Cyrillic", "Квартальний звіт", "uk-UA", "uk-UA"},
		{"Greek is el-GR", "Τριμηνιαία έκθεση", "", "el-GR"},
		{"Thai is th-TH", "รายงานรายไตรมาส", "", "th-TH"},
		{"Latin text keeps its tag", "Rapport trimestriel", "fr-FR", "fr-FR"},
		{"Latin text without a tag says nothing", "Quarterly report", "", ""},
		{"digits and punctuation say nothing", "2026 — 42%", "de-DE", "de-DE"},
		{"the script with the most letters decides", "Q3 売上レポート for the board", "en-US", "en-US"},
		{"East Asian letters outnumbering Latin decide", "ACE の四半期売上レポート", "en-US", "ja-JP"},
		{"empty text keeps its tag", "", "en-US", "en-US"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := TextLang(c.text, c.tagged); got != c.want {
				t.Errorf("TextLang(%q, %q) = %q, want %q", c.text, c.tagged, got, c.want)
			}
		})
	}
}
