package route

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/acecanvas/ace/internal/scenegraph"
)

// The six cue banks of the heuristic router H (ACE App. B.1), matched
// case-insensitively on the lower-cased instruction. Wording is ours.
var (
	// (i) global scope: the instruction is about the whole deck.
	bankGlobal = regexp.MustCompile(`\b(?:entire|whole|all|every|each|any)\b[^.;]{0,30}\b(?:presentation|deck|slides?|pages?|text|titles?|headings?|images?|pictures?|photos?|charts?|tables?|shapes?|fonts?)\b` +
		`|\b(?:throughout|everywhere|globally|deck[\s-]wide|across\s+(?:the|all|every|each)\b)` +
		`|\b(?:the|this|our)\s+(?:presentation|deck)\b`)
	// (ii) systemic tokens: colours, themes, palettes, modes.
	bankSystemic = regexp.MustCompile(`\bcolou?r\s*(?:scheme|palette|theme|tokens?)\b|\bpalette\b|\btheme\b|\b(?:dark|light|night)\s*(?:mode|theme)\b` +
		`|\bbrand(?:ing)?\s+colou?rs?\b|\baccent\s+colou?rs?\b|\bprimary\s+colou?rs?\b|\bcorporate\s+colou?rs?\b|\bdesign\s+(?:system|tokens?)\b` +
		`|\bre-?brand\b|\bmonochrome\b|\bgr[ae]yscale\b|\bcolou?rs?\b[^.;]{0,40}\b(?:muted|professional|vibrant|warmer|cooler|softer|consistent)\b` +
		`|\b(?:white|black|dark|light)\s+background\s+on\s+(?:every|all|each)\b|\bbackgrounds?\s+of\s+(?:all|every)\b|\b(?:every|all|each)\s+slides?'?s?\s+background\b`)
	// (iii) macro / batch operations over many nodes.
	bankMacro = regexp.MustCompile(`\btranslat(?:e|ion)\b|\bproof-?read\b|\bspell(?:ing|-check)?\b|\btypos?\b|\bgrammar\b|\bfind\s+and\s+replace\b` +
		`|\breplace\s+(?:all|every|each)\b|\b(?:every|all)\s+occurrences?\b|\bcapitali[sz]e\b|\btitle\s+case\b|\bsentence\s+case\b|\bupper-?case\b|\blower-?case\b` +
		`|\b(?:bold|italici[sz]e|underline|recolou?r|resize|restyle|rename|number)\s+(?:all|every|each)\b` +
		`|\b(?:all|every|each)\s+(?:slide\s+)?(?:titles?|headings?|headers?|footers?|images?|pictures?|photos?|tables?|charts?|text|bullets?|content\s+slides?)\b` +
		`|\bslide\s+numbers?\b|\bpage\s+numbers?\b|\bfooters?\b|\bspeaker\s+notes\b[^.;]{0,30}\b(?:all|every|each)\b|\b(?:all|every|each)\b[^.;]{0,30}\bspeaker\s+notes\b` +
		`|\bstandardi[sz]e\b|\bunify\b|\bharmoni[sz]e\b|\bconsistent\b|\bsame\s+(?:font|style|header|format|size)\b|\btransitions?\b[^.;]{0,25}\b(?:every|all|each)\b|\b(?:every|all|each)\b[^.;]{0,25}\btransitions?\b` +
		`|\balt[\s-]?text\b[^.;]{0,30}\b(?:all|every|each)\b|\b(?:all|every|each)\b[^.;]{0,30}\balt[\s-]?text\b|\bno\s+text\b|\blink\s+each\b` +
		`|\baspect\s+ratio\b|\bslide\s+size\b|\bwidescreen\b|\b(?:16\s*:\s*(?:9|10)|4\s*:\s*3)\b`)
	// (iv) structural changes of the slide sequence.
	bankStructural = regexp.MustCompile(`\bwrong\s+order\b|\bre-?order\b|\brearrange\s+(?:the\s+)?slides\b|\b(?:fix|change)\s+(?:the\s+)?(?:slide\s+)?order\b|\bsort\s+(?:the\s+)?slides\b` +
		`|\bactual\s+order\b|\bmerge\s+(?:the\s+)?slides\b|\bmerge\s+slides?\s+\d|\bcombine\s+(?:the\s+)?slides\b|\bconsolidate\b|\bsplit\s+(?:this\s+|the\s+)?slides?\b` +
		`|\bduplicate\s+(?:the\s+|this\s+)?slides?\b|\b(?:delete|remove|drop|hide)\s+(?:the\s+)?slides?\b|\bmove\s+slides?\s+\d|\bswap\s+(?:the\s+)?slides\b` +
		`|\bsections?\b|\btable\s+of\s+contents\b|\bagenda\s+slide\b|\bcomes?\s+(?:right\s+)?(?:after|before)\s+slide\b`)
	// "add a thank-you slide", "insert a new agenda slide": a new slide,
	// unless the words between the verb and "slide" hold a preposition
	// ("create a timeline on slide 11" edits slide 11).
	reAddSlide = regexp.MustCompile(`\b(?:add|insert|create|append)\s+((?:[a-z&\-]+\s+){0,4})slides?\b`)
	// deck scope: the edit applies to every slide, so named slides are
	// references, not the scope.
	reDeckScope = regexp.MustCompile(`\b(?:every|each)\s+(?:[a-z\-]+\s+)?(?:slide|page)\b|\ball\s+(?:[a-z\-]+\s+)?(?:slides|pages)\b|\b(?:entire|whole)\s+(?:presentation|deck)\b|\bthroughout\b|\beverywhere\b|\bacross\s+(?:the\s+|all\s+)?(?:slides|deck|presentation)\b`)
	// deck-wide geometry or look: the skeleton lacks what these need
	// (per-slide boxes, colours), so they go FULL (ACE App. K, case 75).
	bankVisualWide = regexp.MustCompile(`\balign|\bposition|\boverlap|\blayout\b|\bspacing\b|\blook\b|\bmodern|\bdesign\b|\bclean\s+up\b|\btidy\b|\bvisual|\bpolish`)
	// (v) micro-spatial edits of specific elements.
	bankMicro = regexp.MustCompile(`\badd\s+(?:an?\s+|the\s+)?(?:\w+\s+){0,2}(?:chart|graph|table|image|picture|photo|shape|text\s*box|icon|arrow|line|logo|caption|button|diagram|smartart|timeline|divider)\b` +
		`|\b(?:move|resize|align|cent(?:er|re)|position|rotate|flip|crop|nudge|shift|distribute|group|ungroup|swap|insert|draw|render)\b` +
		`|\boverlap|\b(?:bring|send)\s+(?:it\s+)?(?:to\s+)?(?:the\s+)?(?:front|back|forward|backward)\b|\bz-?order\b|\bbehind\b|\blayer\b` +
		`|\b(?:bigger|smaller|larger|enlarge|shrink|thinner|thicker|wider|narrower|taller)\b|\bspacing\b|\bmargins?\b|\bpadding\b|\bauto-?layout\b` +
		`|\bhighlight|\bbold\b|\bunderline|\bitalic|\bshadow\b|\brounded\b|\bopacity\b|\btransparen|\bborder\b|\bcontrast\b` +
		`|\b(?:chart|graph|table|image|picture|photo|logo|icon|title|subtitle|heading|caption|footer|badge|card|bullet|row|column|cell|diagram|timeline|org\s+chart|formula|equation|video)\b`)
	// (vi) image gating: cues that need to see the slide, and cues that do not.
	bankImage = regexp.MustCompile(`\bimages?\b|\bpictures?\b|\bphotos?\b|\bvisual|\blook\b|\blooks\b|\blayout\b|\balign|\boverlap|\bposition|\bcharts?\b|\bgraphs?\b|\bdiagram` +
		`|\bicons?\b|\blogos?\b|\bcolou?rs?\b|\bbackground|\bdesign\b|\bstyle\b|\bspacing\b|\bcrop|\bshapes?\b|\barrows?\b|\bsmartart\b|\binfographic|\bmodern\b` +
		`|\bclean\s+up\b|\btidy\b|\bclutter|\bbalance|\bfits?\b|\boverflow|\bcontrast\b|\bmove\b|\bresize\b|\bcent(?:er|re)\b|\btheme\b|\bpalette\b|\bvideo\b|\bformula|\bequation`)
	bankNoImage = regexp.MustCompile(`\btranslat|\bproof-?read|\btypos?\b|\bspell|\bgrammar\b|\brename\b|\bwording\b|\breword|\brewrite\b|\bnotes\b|\breplace\b` +
		`|\bre-?order\b|\border\b|\bdelete\b|\bremove\b|\btitle\s+case\b|\bupper-?case\b|\blower-?case\b|\bcapitali|\bslide\s+numbers?\b|\bsummar|\bshorten\b|\btone\b|\blink\b|\bsections?\b`)
	// cross-slide dependency: the edit needs context from other slides
	// (the router prompt's "match the presentation's style").
	bankCrossSlide = regexp.MustCompile(`\bmatch\b[^.;]{0,40}\b(?:rest|other|deck|presentation|theme)\b|\bconsistent\s+with\b|\blike\s+the\s+(?:other|rest)\b|\bsame\s+(?:look|style)\s+as\s+the\s+(?:rest|other)\b`)
)

// Heuristic is the deterministic router H of ACE App. B.1. It always
// returns a complete decision: mode, 0-based targets clamped to the deck,
// needs_image (ties -> true: missing visual context hurts more than extra
// tokens) and a reason. Mode priority: systemic cue with global scope ->
// SYSTEMIC_TOKEN; structural cue -> MACRO_PROGRAMMATIC; macro cue with no
// or more than 3 targets -> MACRO_PROGRAMMATIC; 1-6 explicit targets ->
// MICRO_SPATIAL; more than 6 targets or a global cue -> MACRO_PROGRAMMATIC;
// otherwise FULL. A one-slide deck turns MACRO_PROGRAMMATIC (and FULL) into
// MICRO_SPATIAL on slide 0 (App. B.4).
func Heuristic(instruction string, d *scenegraph.Deck) Decision {
	if d == nil {
		d = &scenegraph.Deck{}
	}
	lower := strings.ToLower(instruction)
	r := extractRefs(lower, d)
	global := bankGlobal.MatchString(lower)
	systemic := bankSystemic.MatchString(lower)
	macro := bankMacro.MatchString(lower)
	structural := bankStructural.MatchString(lower) || addsSlide(lower)
	deckScope := reDeckScope.MatchString(lower)
	visualWide := bankVisualWide.MatchString(lower)
	micro := bankMicro.MatchString(lower)
	cross := bankCrossSlide.MatchString(lower)
	nImg := len(bankImage.FindAllString(lower, -1))
	nNo := len(bankNoImage.FindAllString(lower, -1))

	dec := Decision{TargetSlides: r.slides, NeedsImage: nImg >= nNo, Source: "heuristic"}
	k := len(r.slides)
	cues := cueList(global, systemic, macro, structural, micro, cross)
	switch {
	case systemic && (global || cross || !r.explicit):
		dec.Mode = Systemic
		dec.Reason = "design-token cue (colour/theme/palette) with deck-wide scope"
	case structural:
		dec.Mode = Macro
		dec.Reason = "structural change of the slide sequence needs the whole-deck skeleton"
	case macro && (k == 0 || k > 3):
		dec.Mode = Macro
		dec.Reason = "batch operation over many slides"
	case deckScope && k > 0 && (macro || micro):
		dec.Mode = Macro
		dec.Reason = "edit applies to every slide; the named slides are references"
	case cross && k > 0:
		dec.Mode = Macro
		dec.Reason = "edit depends on slides other than its targets"
	case k >= 1 && k <= 6:
		dec.Mode = Micro
		if r.explicit {
			dec.Reason = fmt.Sprintf("explicit reference to %d slide(s)", k)
		} else {
			dec.Reason = fmt.Sprintf("instruction names content found on %d slide(s)", k)
		}
	case k > 6:
		dec.Mode = Macro
		dec.Reason = fmt.Sprintf("%d target slides: batch scope", k)
	case global && visualWide && !macro:
		dec.Mode = Full
		dec.Reason = "deck-wide layout or look: needs every slide's geometry and colours"
	case global || macro:
		dec.Mode = Macro
		dec.Reason = "deck-wide scope without a design-token cue"
	case micro:
		dec.Mode = Full
		dec.Reason = "element-level edit without a slide named or found: full deck"
	default:
		dec.Mode = Full
		dec.Reason = "no routing cue matched"
	}
	if cues != "" {
		dec.Reason += " [cues: " + cues + "]"
	}
	return reclassifySingleSlide(dec, len(d.Slides))
}

func addsSlide(lower string) bool {
	for _, m := range reAddSlide.FindAllStringSubmatch(lower, -1) {
		ok := true
		for _, w := range strings.Fields(m[1]) {
			switch w {
			case "on", "in", "to", "at", "of", "for", "from", "into", "onto", "with", "each", "every", "all":
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func cueList(global, systemic, macro, structural, micro, cross bool) string {
	var c []string
	for _, x := range []struct {
		on   bool
		name string
	}{{global, "global"}, {systemic, "systemic"}, {macro, "macro"}, {structural, "structural"}, {micro, "micro"}, {cross, "cross-slide"}} {
		if x.on {
			c = append(c, x.name)
		}
	}
	return strings.Join(c, ",")
}

// reclassifySingleSlide rewrites MACRO_PROGRAMMATIC to MICRO_SPATIAL on
// slide 0 for a one-slide deck, keeping reason and needs_image (ACE App.
// B.4). We also turn a one-slide FULL into MICRO_SPATIAL: the contexts
// differ only by the theme tokens, and the micro block tells the agent how
// to read coordinates.
func reclassifySingleSlide(d Decision, slides int) Decision {
	if slides == 1 && (d.Mode == Macro || d.Mode == Full) {
		d.Mode = Micro
		d.TargetSlides = []int{0}
		d.Reason += "; one-slide deck: micro on slide 1"
	}
	return d
}
