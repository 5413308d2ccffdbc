// Issue 29 item 3: names as users type them. Globs treat `/` and `\` alike (on both sides; `\` is
// never an escape), fold ASCII case when asked (a case-insensitive archive), and a selector that
// selects nothing gets the nearest one that does ("did you mean", the verbs' rule).
#include <gtest/gtest.h>

#include "assay/core/extract_each.h"
#include "assay/core/glob.h"
#include "assay/core/suggest.h"

namespace assay {
namespace {

constexpr GlobOptions kFold{true};

TEST(GlobNames, SlashAndBackslashAreOneSeparator) {
  // As a Skylanders archive stores its names, and as users type them on either system.
  EXPECT_TRUE(glob_match("textures/*", "textures\\colormap_zap_c_11.igz"));
  EXPECT_TRUE(glob_match("textures\\*", "textures/colormap_zap_c_11.igz"));
  EXPECT_TRUE(glob_match("textures\\*", "textures\\colormap_zap_c_11.igz"));
  EXPECT_TRUE(glob_match("vfx/*/zap/*.igz", "vfx\\characters\\skylanders\\zap\\zap_wavefx.igz"));
  EXPECT_TRUE(glob_match("a\\b.txt", "a/b.txt"));  // an exact name with the other separator
  // `\` is a separator, not fnmatch's escape: `a\*` is `a/*`; a literal `*` is written `[*]`.
  EXPECT_FALSE(glob_match("a\\*", "a*"));
  EXPECT_TRUE(glob_match("a[*]", "a*"));
  EXPECT_FALSE(glob_match("a[*]", "ab"));
  // `*` still crosses separators of either kind; `?` matches one separator.
  EXPECT_TRUE(glob_match("*.igz", "a\\b/c.igz"));
  EXPECT_TRUE(glob_match("a?b", "a\\b"));
  EXPECT_FALSE(glob_match("textures/*", "materialinstances\\zap_igb_materials.igz"));
}

TEST(GlobNames, CaseFoldsOnlyWhenAsked) {
  EXPECT_FALSE(glob_match("*WAVE*", "models\\characters\\skylanders\\zap\\zapwave.igz"));
  EXPECT_TRUE(glob_match("*WAVE*", "models\\characters\\skylanders\\zap\\zapwave.igz", kFold));
  EXPECT_TRUE(glob_match("Textures/*.IGZ", "textures\\normalmap_zap_n_11.igz", kFold));
  EXPECT_TRUE(glob_match("[A-C]x", "bx", kFold));  // ranges fold too
  EXPECT_TRUE(glob_match("[a-c]x", "BX", kFold));
  EXPECT_FALSE(glob_match("[a-c]x", "dx", kFold));
  // Only ASCII letters fold: bytes above 0x7F compare as they are.
  EXPECT_FALSE(glob_match("\xC3\x89*", "\xC3\xA9t\xC3\xA9", kFold));
  EXPECT_TRUE(glob_any({"*.png", "*WAVE*"}, "zap_wavefx.igz", kFold));
  EXPECT_FALSE(glob_any({"*.png", "*WAVE*"}, "zap_wavefx.igz"));
  EXPECT_TRUE(glob_any({}, "anything", kFold));
  EXPECT_EQ(glob_normalise("A\\B/c", kFold), "a/b/c");
  EXPECT_EQ(glob_normalise("A\\B/c", GlobOptions{}), "A/B/c");
  EXPECT_TRUE(has_glob_chars("a[1]"));
  EXPECT_FALSE(has_glob_chars("textures\\a.igz"));
}

TEST(GlobNames, SelectItemsFoldsCaseWithThePolicy) {
  const std::vector<ExtractItem> items = {
      {"textures\\a.igz", {"textures/a.igz"}, "textures/a.igz", 1},
      {"vfx\\ZAP_WaveFX.igz", {"vfx/ZAP_WaveFX.igz"}, "vfx/ZAP_WaveFX.igz", 1},
      {"actors\\zap.igz", {"actors/zap.igz"}, "actors/zap.igz", 1},
  };
  ExtractPolicy p;
  p.globs = {"*wave*", "TEXTURES\\*"};
  std::vector<std::string> unmatched;
  EXPECT_TRUE(select_items(items, p, &unmatched).empty());
  EXPECT_EQ(unmatched, (std::vector<std::string>{"*wave*", "TEXTURES\\*"}));
  p.fold_case = true;
  unmatched.clear();
  EXPECT_EQ(select_items(items, p, &unmatched), (std::vector<std::size_t>{0, 1}));
  EXPECT_TRUE(unmatched.empty());
  p.globs = {};
  p.excludes = {"ACTORS/*"};  // --exclude folds the same way
  EXPECT_EQ(select_items(items, p, nullptr), (std::vector<std::size_t>{0, 1}));
}

// The rule the CLI uses for verbs (docs/cli.md: `lsit` -> `list`), now shared.
TEST(Suggest, ClosestWordIsTheVerbRule) {
  const std::vector<std::string> verbs = {"identify", "info", "list", "extract", "verify"};
  EXPECT_EQ(closest_word("lsit", verbs), "list");       // distance 2
  EXPECT_EQ(closest_word("extrat", verbs), "extract");  // distance 1
  EXPECT_EQ(closest_word("ext", verbs), "extract");     // a prefix
  EXPECT_EQ(closest_word("pack", verbs), "");           // nothing within 2
  EXPECT_EQ(closest_word("x", verbs), "");              // not closer than the word is long
}

TEST(Suggest, NamesAndGlobsThatSelectNothing) {
  const std::vector<std::string> names = {"textures\\colormap_zap_c_11.igz", "actors\\zap.igz",
                                          "vfx\\characters\\skylanders\\zap\\zap_wavefx.igz", "scripts\\zap.vvl"};
  // a name: the closest spelling, shown with '/'
  EXPECT_EQ(suggest_selector("actors/zapp.igz", names, kFold), "actors/zap.igz");
  EXPECT_EQ(suggest_selector("actor\\zap.igz", names, kFold), "actors/zap.igz");
  // another case of an existing name, in an archive that does not fold case
  EXPECT_EQ(suggest_selector("ACTORS/ZAP.IGZ", names, GlobOptions{}), "actors/zap.igz");
  // a glob: one folder name mistyped
  EXPECT_EQ(suggest_selector("texture/*", names, kFold), "textures/*");
  EXPECT_EQ(suggest_selector("vfx/*/skylander/*", names, kFold), "vfx/*/skylanders/*");
  // a glob: a literal run mistyped (the extension, a word)
  EXPECT_EQ(suggest_selector("*.igzz", names, kFold), "*.igz");
  EXPECT_EQ(suggest_selector("*wvae*", names, kFold), "*wave*");
  // nothing close: no suggestion
  EXPECT_EQ(suggest_selector("*.png", names, kFold), "");
  EXPECT_EQ(suggest_selector("music/*", names, kFold), "");
  EXPECT_EQ(suggest_selector("anything", {}, kFold), "");
}

}  // namespace
}  // namespace assay
