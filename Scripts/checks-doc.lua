-- Writes docs/checks.md from the checks themselves: fontshell run Scripts/checks-doc.lua > docs/checks.md
-- (a test compares the file with this output, so the page cannot drift from the checks).
local list = check.list()
local out = {}
local function add(s) out[#out + 1] = s end
add("# Font checks")
add("")
add("`fontshell check` (docs/batch.md) and `check(face)` in the REPL run these checks. Each is a small")
add("Lua file, `Sources/FontScript/Checks/<area>/<id>.lua`, returning")
add("")
add("```lua")
add("return {")
add("  id = \"win-clipping\", title = \"...\", rationale = [[why it matters, to whom]],")
add("  severity = \"fail\",               -- or \"warn\": how bad a problem it finds is")
add("  fontbakery = \"family/win_ascent_and_descent\",   -- the fontbakery check it matches, if any")
add("  outlines = true,                 -- reads glyph outlines (faces sharing them are checked once)")
add("  applies = function(face) ... end, -- optional: false skips the check for this face")
add("  check = function(face, report) report.fail(\"...\") end,  -- also report.warn, .problem (at severity), .skip, .info")
add("  fix = function(face) ...; return \"what it did\" end,      -- optional: repairs what check found")
add("}")
add("```")
add("")
add("Checks see the Lua API (docs/lua-api.md) plus `util`: `util.mappings(face)` (the cmap as sorted")
add("`{cp, gid}` pairs), `util.advances(face)`, `util.blanks(face)`, `util.isBlank/isSpace/isMark(cp)`,")
add("`util.markGlyphs(face)` (GDEF class 3), `util.style(face)`, `util.segments`/`util.flatten`/`util.area`")
add("for outlines (the Glyph methods `contourAreas`, `overlaps` and `missingExtrema` answer the usual")
add("questions faster), `util.list(items)` for messages. `--checks DIR` adds a folder of your own checks (a check")
add("with a shipped id replaces it); `--profile fontbakery` runs only the checks with a fontbakery id, and")
add("`--profile AREA` one area. The fontbakery column maps each check to the fontbakery check (profiles")
add("`universal` and `opentype`, fontbakery 1.1) it was written to agree with; the benchmark runs both sets.")
add("")
local area
local counts = {}
for _, c in ipairs(list) do
  local a = c.id:match("^[^/]+")
  counts[a] = (counts[a] or 0) + 1
end
for _, c in ipairs(list) do
  local a = c.id:match("^[^/]+")
  if a ~= area then
    area = a
    add("## " .. a .. " (" .. counts[a] .. ")")
    add("")
    add("| check | severity | what it checks | fix | fontbakery |")
    add("|---|---|---|---|---|")
  end
  local title = (c.title or ("BROKEN: " .. tostring(c.broken))):gsub("|", "\\|")
  add(string.format("| `%s` | %s | %s | %s | %s |", c.id, c.severity or "", title, c.fix and "yes" or "",
    c.fontbakery and ("`" .. c.fontbakery .. "`") or ""))
  local last = list[_ + 1]
  if not last or last.id:match("^[^/]+") ~= a then add("") end
end
local mapped = 0
for _, c in ipairs(list) do if c.fontbakery then mapped = mapped + 1 end end
add(string.format("%d checks, %d of them with a fontbakery counterpart.", #list, mapped))
add("")
add("## Agreement with fontbakery")
add("")
add("On the 51 TrueType corpus fonts (DejaVu, Liberation, Roboto), fontbakery 1.1.0 with the 48 checks")
add("above and `fontshell check --profile fontbakery` agree on whether a font passes 2,460 times out of")
add("2,538 (96.9 %; fontbakery's PASS, INFO and SKIP count as passing; measured 2026-11-23). Where they")
add("differ, on purpose:")
add("")
add("- `flags/vendor-id` warns on placeholder vendor IDs (`PfEd`, `UKWN`, blanks); fontbakery skips its")
add("  `opentype/vendor_id` without its downloaded vendor list (21 fonts).")
add("- `glyphs/base-has-width` lets Unicode combining marks (Mn, Me) have no advance even when GDEF does")
add("  not class them as marks; that omission is what `layout/gdef-mark-chars` reports. fontbakery exempts")
add("  GDEF marks only (21 fonts: Roboto's combining marks, four enclosing marks in DejaVu Math).")
add("- `glyphs/empty-printing-chars` covers every printing character, not only letters: DejaVu's empty")
add("  U+FFFC OBJECT REPLACEMENT CHARACTER fails it (19 fonts).")
add("- `flags/monospace` does not ask monospaced fonts for `numberOfHMetrics` = 3 (fontTools#3014 explains")
add("  why a font may keep more); fontbakery warns (8 fonts).")
add("- `outlines/points-in-bounds` looks at the glyphs of mapped characters; fontbakery at every glyph (5).")
add("- `names/family-style-length` warns when IDs 1 and 2 together pass 32 characters (what Windows menus")
add("  show); fontbakery measures other combinations (2).")
add("- `names/full-name-starts-with-family` accepts a full name that starts with the typographic family")
add("  (ID 16); fontbakery wants the legacy family (ID 1) too (1: DejaVu Sans ExtraLight).")
add("- `metrics/win-clipping` compares each font with its own bounds; fontbakery's is a family check that")
add("  uses the tallest glyph of the whole family (1: DejaVu Math).")
add("")
add("Not yet: variable-font checks (fvar/STAT consistency) wait for the variable-font model.")
add("Outline checks look at the glyphs of mapped characters, at most 5,000 per face, and say how many")
add("they left out. Their geometry is worked out in Swift by the Glyph methods any script has")
add("(`g:contourAreas()`, exact for the curves; `g:overlaps()`, where contours' outlines, each curve cut")
add("in three, cross; `g:missingExtrema(tolerance)`, where a curve goes more than a five-hundredth of")
add("an em past both its ends), so each check is a short loop. Overlaps are looked for in static fonts")
add("only (variable fonts keep overlaps on purpose).")
io.write(table.concat(out, "\n"), "\n")
