package dev.neardup.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import dev.neardup.text.ContentType;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Shingler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the sample crawl bundled in the jar, {@code src/main/resources/sample/crawl.jsonl}, its
 * description {@code src/main/resources/sample/README.md}, and the machine-readable list of its
 * near-duplicate pairs with their exact similarities, {@code src/test/resources/sample-pairs.csv}
 * (checked by {@code SampleCrawlTest}).
 *
 * <p>The content is original text written for this sample (every place, person, company and figure
 * in it is invented); all URLs are under example.org, example.com and example.net. From about
 * twenty base articles the generator derives realistic near-duplicates: mirrors on other sites,
 * print views, light edits, reordered sections, articles contained in digest pages, plain-text
 * copies and re-crawls, plus unrelated pages, boilerplate-only "not found" pages and malformed
 * lines. The output is a pure function of the code and {@link #SEED} (fetch-time jitter, the few
 * out-of-order lines and the positions of the malformed lines); running it twice gives identical
 * files.
 *
 * <p>To re-run it, from the project root (with the Maven repository warm):
 *
 * <pre>
 * mvn -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *     dev.neardup.testing.SampleCrawlGenerator .
 * </pre>
 *
 * The argument is the project root (default: the current directory). The exact Jaccard and
 * containment values are computed with the project's own shingler (word 5-shingles, {@link
 * ShingleOptions#defaults()}), so a change to the text pipeline changes them: re-run the generator
 * and commit the three files together ({@code SampleCrawlTest} fails while they are stale). Edit
 * the text here, never the generated files.
 */
public final class SampleCrawlGenerator {

    /** Seed of every random choice. */
    public static final long SEED = 0x53414D504C45L; // "SAMPLE"

    /** Where the crawl starts (fetch times are offsets from here). */
    static final Instant START = Instant.parse("2026-03-02T00:00:00Z");

    public static final String CRAWL = "src/main/resources/sample/crawl.jsonl";
    public static final String README = "src/main/resources/sample/README.md";
    public static final String PAIRS = "src/test/resources/sample-pairs.csv";

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final SplittableRandom random = new SplittableRandom(SEED);
    private final List<Doc> docs = new ArrayList<>();
    private final List<Pair> pairs = new ArrayList<>();

    private SampleCrawlGenerator() {}

    /** The three generated files, and a summary for the console. */
    public record Output(String crawl, String readme, String pairs, String summary) {}

    /** Generates the three files in memory (used by {@link #main} and by the tests). */
    public static Output generate() {
        SampleCrawlGenerator g = new SampleCrawlGenerator();
        g.build();
        List<Doc> ordered = g.order();
        g.measure();
        String crawl = g.crawlText(ordered);
        int bytes = crawl.getBytes(StandardCharsets.UTF_8).length;
        return new Output(crawl, g.readme(ordered, bytes), g.pairsCsv(), g.summary(ordered, bytes));
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        Output out = generate();
        write(root.resolve(CRAWL), out.crawl());
        write(root.resolve(PAIRS), out.pairs());
        write(root.resolve(README), out.readme());
        System.out.print(out.summary());
    }

    private static void write(Path path, String text) throws IOException {
        Files.createDirectories(path.getParent());
        Files.writeString(path, text, StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------------------------------
    // Article model: a title, an optional byline and blocks, parsed from a small markup.
    // ---------------------------------------------------------------------------------------

    enum BlockKind {
        H2,
        P,
        UL,
        OL,
        CODE
    }

    record Block(BlockKind kind, List<String> lines) {
        String text() {
            return String.join(" ", lines);
        }
    }

    record Article(String title, String byline, List<Block> blocks) {

        static Article parse(String markup) {
            String title = null;
            String byline = null;
            List<Block> blocks = new ArrayList<>();
            BlockKind open = null;
            List<String> lines = new ArrayList<>();
            for (String raw : markup.split("\n", -1)) {
                String line = raw.strip();
                BlockKind kind;
                String text;
                if (line.isEmpty()) {
                    kind = null;
                    text = null;
                } else if (line.startsWith("## ")) {
                    kind = BlockKind.H2;
                    text = line.substring(3);
                } else if (line.startsWith("# ")) {
                    title = line.substring(2);
                    continue;
                } else if (line.startsWith("@ ")) {
                    byline = line.substring(2);
                    continue;
                } else if (line.startsWith("- ")) {
                    kind = BlockKind.UL;
                    text = line.substring(2);
                } else if (line.matches("\\d+\\. .*")) {
                    kind = BlockKind.OL;
                    text = line.substring(line.indexOf(' ') + 1);
                } else if (raw.strip().startsWith("|")) {
                    kind = BlockKind.CODE;
                    text = raw.strip().length() > 1 ? raw.strip().substring(2) : "";
                } else {
                    kind = BlockKind.P;
                    text = line;
                }
                boolean continues =
                        kind != null
                                && kind == open
                                && (kind == BlockKind.P
                                        || kind == BlockKind.UL
                                        || kind == BlockKind.OL
                                        || kind == BlockKind.CODE);
                if (!continues && open != null) {
                    blocks.add(new Block(open, List.copyOf(lines)));
                    lines.clear();
                    open = null;
                }
                if (kind == BlockKind.H2) {
                    blocks.add(new Block(BlockKind.H2, List.of(text)));
                } else if (kind != null) {
                    open = kind;
                    lines.add(text);
                }
            }
            if (open != null) {
                blocks.add(new Block(open, List.copyOf(lines)));
            }
            if (title == null) {
                throw new IllegalArgumentException("no title in " + markup);
            }
            return new Article(title, byline, List.copyOf(blocks));
        }

        /** Blocks before the first heading, then one list per section (heading first). */
        List<List<Block>> sections() {
            List<List<Block>> out = new ArrayList<>();
            List<Block> current = new ArrayList<>();
            for (Block b : blocks) {
                if (b.kind() == BlockKind.H2) {
                    out.add(current);
                    current = new ArrayList<>();
                }
                current.add(b);
            }
            out.add(current);
            return out;
        }

        /** The same article with its sections (index 0: the part before the first heading). */
        Article withSections(int... order) {
            List<List<Block>> sections = sections();
            if (order.length != sections.size()) {
                throw new IllegalArgumentException(
                        title + " has " + sections.size() + " sections, got " + order.length);
            }
            List<Block> out = new ArrayList<>();
            Set<Integer> seen = new LinkedHashSet<>();
            for (int i : order) {
                if (!seen.add(i)) {
                    throw new IllegalArgumentException("section " + i + " twice");
                }
                out.addAll(sections.get(i));
            }
            return new Article(title, byline, List.copyOf(out));
        }

        /** Words of the visible article text (title, byline and blocks). */
        int words() {
            StringBuilder all = new StringBuilder(title).append(' ');
            if (byline != null) {
                all.append(byline).append(' ');
            }
            for (Block b : blocks) {
                all.append(String.join(" ", b.lines())).append(' ');
            }
            return all.toString().strip().split("\\s+").length;
        }
    }

    /** {@code markup} with {@code from} replaced by {@code to}; {@code from} must occur once. */
    static String edit(String markup, String from, String to) {
        int at = markup.indexOf(from);
        if (at < 0 || markup.indexOf(from, at + 1) >= 0) {
            throw new IllegalArgumentException((at < 0 ? "not found: " : "found twice: ") + from);
        }
        return markup.substring(0, at) + to + markup.substring(at + from.length());
    }

    // ---------------------------------------------------------------------------------------
    // Sites and rendering.
    // ---------------------------------------------------------------------------------------

    enum Layout {
        /** header, nav list, main, optional aside, footer. */
        MODERN,
        /** an older table-less div layout with a pipe-separated menu. */
        CLASSIC,
        /** archive banner, the article, a one-line footer (mirrors, print views). */
        MINIMAL
    }

    /**
     * A web site's template. {@code notice} may use {@code {url}} (the original URL) and {@code
     * {date}} (the fetch date).
     */
    record Site(
            String host,
            String name,
            String tagline,
            List<String> nav,
            Layout layout,
            String titleFormat,
            String notice,
            String asideTitle,
            List<String> aside,
            String footer,
            String accent) {

        String title(String pageTitle) {
            return titleFormat.replace("{}", pageTitle);
        }
    }

    static Site site(
            String host,
            String name,
            String tagline,
            String nav,
            Layout layout,
            String titleFormat,
            String notice,
            String asideTitle,
            String aside,
            String footer,
            String accent) {
        return new Site(
                host,
                name,
                tagline,
                nav == null ? List.of() : List.of(nav.split("\\s*;\\s*")),
                layout,
                titleFormat,
                notice,
                asideTitle,
                aside == null ? List.of() : List.of(aside.split("\\s*;\\s*")),
                footer,
                accent);
    }

    static final Site COURIER =
            site(
                    "news.example.org",
                    "Millbrook Courier",
                    "News for Millbrook and the upper valley since 1884",
                    "Home; Local; Business; Schools; Arts; Sport; Weather; Opinion; Obituaries;"
                            + " Subscribe",
                    Layout.MODERN,
                    "{} | Millbrook Courier",
                    null,
                    null,
                    null,
                    "© 2026 Millbrook Courier, 40 Water Street, Millbrook. Contact the newsroom ·"
                            + " Advertise with us · Privacy policy · Terms of use",
                    "#8a1c1c");

    static final Site COURIER_PRINT =
            site(
                    "news.example.org",
                    "Millbrook Courier",
                    null,
                    null,
                    Layout.MINIMAL,
                    "{} (print) | Millbrook Courier",
                    "Millbrook Courier · print edition",
                    null,
                    null,
                    "Printed from news.example.org. © 2026 Millbrook Courier.",
                    "#000000");

    static final Site NEWSWIRE =
            site(
                    "newswire.example.com",
                    "NewsWire Local",
                    "Local news from 300 towns, updated every minute",
                    "Top stories; Local; National; World; Business; Tech; Sport; Entertainment;"
                            + " Health; Weather; Video; Newsletters",
                    Layout.MODERN,
                    "{} - NewsWire Local",
                    "We use cookies to personalise content and ads, to provide social media"
                            + " features and to analyse our traffic. By continuing to browse you"
                            + " agree to our use of cookies. Manage preferences",
                    "Trending now",
                    "Harbor city council approves a new ferry schedule; Three-alarm fire closes"
                        + " Route 2 overnight in Dunmore; High school robotics team heads to the"
                        + " national finals; County fair announces its dates and a new livestock"
                        + " barn; Opinion: why small towns should keep their libraries open late",
                    "NewsWire Local collects stories from local publishers across the region. This"
                        + " story first appeared in the Millbrook Courier. Sign up for our morning"
                        + " briefing to get the top local stories in your inbox every day. About us"
                        + " · Careers · Contact · Advertise · Privacy · Cookie settings · © 2026"
                        + " NewsWire Media",
                    "#0b5cad");

    static final Site LIBRARY =
            site(
                    "library.example.net",
                    "Millbrook Public Library",
                    "Free to all since 1893",
                    "Home; Catalogue; My account; Events; Kids; Teens; Research; Visit us; Support"
                            + " the library",
                    Layout.CLASSIC,
                    "{} - Millbrook Public Library",
                    null,
                    null,
                    null,
                    "Millbrook Public Library · 14 Chapel Street, Millbrook · Accessibility"
                            + " statement · Privacy",
                    "#2f6b3a");

    static final Site KITCHEN =
            site(
                    "kitchen.example.com",
                    "The Weekday Kitchen",
                    "Simple cooking for busy evenings",
                    "Recipes; Soups; Quick dinners; Baking; Meal plans; About",
                    Layout.MODERN,
                    "{} | The Weekday Kitchen",
                    null,
                    null,
                    null,
                    "Recipes and photos © 2026 The Weekday Kitchen. Please link to our recipes"
                            + " instead of copying them. Privacy · Contact",
                    "#c0602a");

    static final Site KITCHEN_PRINT =
            site(
                    "kitchen.example.com",
                    "The Weekday Kitchen",
                    null,
                    null,
                    Layout.MINIMAL,
                    "Print: {}",
                    null,
                    null,
                    null,
                    "From The Weekday Kitchen, kitchen.example.com",
                    "#000000");

    static final Site RECIPEBOX =
            site(
                    "recipebox.example.net",
                    "RecipeBox",
                    "Every recipe, one box",
                    "Dinner; Breakfast; Desserts; Vegetarian; Collections; Shopping list",
                    Layout.MODERN,
                    "{} Recipe - RecipeBox",
                    "Jump to recipe · Save to my box · Print · Rate this recipe",
                    "You might also like",
                    "Creamy tomato and white bean soup; Ten-minute chickpea curry; Roasted carrot"
                            + " and ginger soup",
                    "RecipeBox collects recipes from around the web. Recipe by The Weekday Kitchen."
                            + " © 2026 RecipeBox Inc.",
                    "#d14b72");

    static final Site SHOP =
            site(
                    "shop.example.com",
                    "Harbor Outfitters",
                    "Gear for wet weather and wild places",
                    "Men; Women; Kids; Footwear; Packs; Camp; Sale; Stores",
                    Layout.MODERN,
                    "{} | Harbor Outfitters",
                    "Free shipping on orders over $75",
                    null,
                    null,
                    "Harbor Outfitters · Customer service · Shipping and returns · Warranty · Gift"
                            + " cards · © 2026 Harbor Outfitters Co.",
                    "#1d4e5f");

    static final Site MARKETHUB =
            site(
                    "markethub.example.net",
                    "MarketHub",
                    "Millions of products, one checkout",
                    "All departments; Today's deals; Outdoor; Clothing; Home; Electronics; Toys;"
                            + " Sell on MarketHub",
                    Layout.MODERN,
                    "MarketHub.example: {}",
                    "Sponsored · Sold by Harbor Outfitters Official Store · Ships from the seller"
                            + " · Seller rating 4.8 of 5",
                    "Customers also viewed",
                    "Trailhead 3L Waterproof Jacket; StormLite Packable Poncho; Cascade Insulated"
                            + " Vest; Merino Base Layer Crew",
                    "MarketHub is not responsible for the content of seller listings. Prices and"
                            + " availability may change. Conditions of use · Privacy notice ·"
                            + " Interest-based ads · © 2026 MarketHub",
                    "#ff9900");

    static final Site CRUMB =
            site(
                    "crumb.example.net",
                    "Crumb & Crust",
                    "Bakery and baking school, Chapel Street, Millbrook",
                    "Shop; Classes; Guides; Recipes; Wholesale; Visit",
                    Layout.MODERN,
                    "{} - Crumb & Crust",
                    null,
                    null,
                    null,
                    "Crumb & Crust Bakery · 9 Chapel Street, Millbrook · Open Tuesday to Sunday"
                            + " from 7 a.m. · Guides © 2026 Crumb & Crust",
                    "#7a5230");

    static final Site BREAD_NOTES =
            site(
                    "breadnotes.example.com",
                    "Bread Notes",
                    "a home baker's notebook",
                    "Home; Archive; About",
                    Layout.MODERN,
                    "{} — Bread Notes",
                    null,
                    null,
                    null,
                    "Reposted with permission.",
                    "#555555");

    static final Site RECIPES_DAILY =
            site(
                    "recipesdaily.example.com",
                    "Recipes Daily",
                    "Fresh recipes every day",
                    "Home; Dinner; Baking; Healthy; Holidays; Videos",
                    Layout.MODERN,
                    "{} | Recipes Daily",
                    "Advertisement · Our editors pick every product we feature. We may earn a"
                            + " commission from links on this page.",
                    "Trending recipes",
                    "Easy no-knead focaccia; Best ever banana bread; Three-ingredient pancakes;"
                            + " Slow cooker beef stew",
                    "Recipes Daily · © 2026 Daily Media Group · Do not sell my personal"
                            + " information",
                    "#e4002b");

    static final Site TOWN =
            site(
                    "town.example.org",
                    "Town of Millbrook",
                    "Incorporated 1791",
                    "Residents; Business; Council; Departments; Visit; Pay online; Contact",
                    Layout.CLASSIC,
                    "{} - Town of Millbrook",
                    null,
                    null,
                    null,
                    "Town of Millbrook · Town Hall, 1 Chapel Street · Office hours Monday to Friday"
                            + " 8:30 a.m. to 4:30 p.m.",
                    "#243b6b");

    static final Site MIRROR =
            site(
                    "mirror.example.net",
                    "Mirror Archive",
                    null,
                    null,
                    Layout.MINIMAL,
                    "{}",
                    "Archived copy of {url}, made {date}.",
                    null,
                    null,
                    "Mirror Archive keeps copies of public web pages.",
                    "#444444");

    static final Site TRAILS =
            site(
                    "trails.example.org",
                    "Upper Valley Trails Association",
                    "Building and caring for trails since 1972",
                    "Trails; Maps; Volunteer; Membership; Events; Donate",
                    Layout.MODERN,
                    "{} | Upper Valley Trails",
                    null,
                    null,
                    null,
                    "Upper Valley Trails Association is a nonprofit organisation. Trail information"
                            + " is a guide only; conditions change, so check before you go.",
                    "#3c6e2f");

    static final Site LATTICE =
            site(
                    "lattice.example.com",
                    "Lattice DB",
                    "An embeddable, distributed key-value database",
                    "Docs; Download; Blog; Community; Source code",
                    Layout.MODERN,
                    "{} · Lattice DB",
                    null,
                    null,
                    null,
                    "Lattice DB is open source under the Apache License 2.0. © 2026 The Lattice DB"
                            + " authors. Code of conduct · Security",
                    "#5b3fd0");

    static final Site MUSEUM =
            site(
                    "museum.example.org",
                    "Kestrel Hill Museum",
                    "Science and industry in the upper valley",
                    "Visit; Exhibitions; Events; Learning; Collections; Membership; Shop",
                    Layout.MODERN,
                    "{} | Kestrel Hill Museum",
                    null,
                    null,
                    null,
                    "Kestrel Hill Museum · 2 Foundry Lane, Millbrook · Open Wednesday to Sunday, 10"
                            + " a.m. to 5 p.m.",
                    "#6d2e46");

    static final Site WEATHER_DESK =
            site(
                    "weather.example.net",
                    "Upper Valley Weather Desk",
                    "Forecasts, warnings and climate data for the upper valley",
                    "Forecast; Advisories; Radar; Climate; Rivers; About",
                    Layout.CLASSIC,
                    "{} - Upper Valley Weather Desk",
                    null,
                    null,
                    null,
                    "Advisories are issued by the Upper Valley Weather Desk. In an emergency, call"
                            + " 911.",
                    "#12466e");

    static final Site WHEELERS =
            site(
                    "wheelers.example.org",
                    "Millbrook Wheelers",
                    "Cycling club since 1986",
                    "Rides; Guides; Club news; Join; Contact",
                    Layout.MODERN,
                    "{} | Millbrook Wheelers",
                    null,
                    null,
                    null,
                    "Millbrook Wheelers cycling club · Group rides leave Station Square every"
                            + " Saturday at 8 a.m.",
                    "#d4a017");

    static final Site RAPTORS =
            site(
                    "raptors.example.org",
                    "Upper Valley Raptor Watch",
                    "Counting migrating hawks since 2004",
                    "Counts; Reports; Volunteer; Visit the lookout",
                    Layout.MODERN,
                    "{} - Upper Valley Raptor Watch",
                    null,
                    null,
                    null,
                    "Upper Valley Raptor Watch · data shared with regional hawk migration networks",
                    "#8b5a2b");

    static final Site MARKET_SITE =
            site(
                    "market.example.com",
                    "Millbrook Saturday Market",
                    "Local farmers and makers, Station Square",
                    "This week; Vendors; Map; Become a vendor; About",
                    Layout.MODERN,
                    "{} | Millbrook Saturday Market",
                    null,
                    null,
                    null,
                    "Millbrook Saturday Market · Station Square · Saturdays 8 a.m. to 1 p.m.",
                    "#4f7d1e");

    static final Site TERN =
            site(
                    "terncoffee.example.com",
                    "Tern Coffee",
                    "Coffee roasters on Water Street",
                    "Shop beans; Subscriptions; Café; About; Wholesale",
                    Layout.MODERN,
                    "{} | Tern Coffee",
                    null,
                    null,
                    null,
                    "Tern Coffee · 27 Water Street, Millbrook",
                    "#2b3a42");

    static final Site HOMES =
            site(
                    "homes.example.net",
                    "Upper Valley Homes",
                    "Rentals and sales across the upper valley",
                    "Rent; Buy; Sell; Landlords; Contact",
                    Layout.MODERN,
                    "{} - Upper Valley Homes",
                    null,
                    "Similar listings",
                    "One-bedroom loft on Water Street, $1,250; Three-bedroom house near Harlow"
                            + " Avenue, $2,400",
                    "Upper Valley Homes · Equal housing opportunity · Listings are provided by"
                            + " landlords and may change.",
                    "#6b8e23");

    static final Site SCHOOL =
            site(
                    "mhs.example.org",
                    "Millbrook High School",
                    "Home of the Millbrook Herons",
                    "About; Academics; Athletics; Arts; Families; News; Calendar",
                    Layout.MODERN,
                    "{} | Millbrook High School",
                    null,
                    null,
                    null,
                    "Millbrook High School · 500 School Street, Millbrook · Millbrook School"
                            + " District",
                    "#00356b");

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");

    /** Escaped inline text, with `code` spans as code elements. */
    static String inline(String s) {
        Matcher m = CODE_SPAN.matcher(esc(s));
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement("<code>" + m.group(1) + "</code>"));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The article body as HTML; headings start at {@code h} (the title) and {@code h + 1}. */
    static String articleHtml(Article a, int h, String cssClass) {
        StringBuilder out = new StringBuilder();
        out.append("<article class=\"").append(cssClass).append("\">\n");
        out.append("<h").append(h).append('>').append(esc(a.title())).append("</h").append(h);
        out.append(">\n");
        if (a.byline() != null) {
            out.append("<p class=\"byline\">").append(inline(a.byline())).append("</p>\n");
        }
        boolean inSection = false;
        for (Block b : a.blocks()) {
            switch (b.kind()) {
                case H2 -> {
                    if (inSection) {
                        out.append("</section>\n");
                    }
                    inSection = true;
                    out.append("<section>\n<h").append(h + 1).append('>');
                    out.append(esc(b.text())).append("</h").append(h + 1).append(">\n");
                }
                case P -> out.append("<p>").append(inline(b.text())).append("</p>\n");
                case UL, OL -> {
                    String tag = b.kind() == BlockKind.UL ? "ul" : "ol";
                    out.append('<').append(tag).append(">\n");
                    for (String item : b.lines()) {
                        out.append("  <li>").append(inline(item)).append("</li>\n");
                    }
                    out.append("</").append(tag).append(">\n");
                }
                case CODE -> {
                    out.append("<pre><code>");
                    out.append(esc(String.join("\n", b.lines())));
                    out.append("</code></pre>\n");
                }
            }
        }
        if (inSection) {
            out.append("</section>\n");
        }
        out.append("</article>\n");
        return out.toString();
    }

    static String css(Site s) {
        return switch (s.layout()) {
            case MODERN ->
                    "\n  :root { --accent: "
                            + s.accent()
                            + "; }\n"
                            + "  body { margin: 0; font: 17px/1.6 Georgia, 'Times New Roman',"
                            + " serif; color: #222; }\n"
                            + "  .site-header, .main-nav, main, aside, .site-footer { max-width:"
                            + " 46rem; margin: 0 auto; padding: 0 1rem; }\n"
                            + "  .main-nav ul { display: flex; flex-wrap: wrap; gap: .75rem;"
                            + " list-style: none; padding: 0; }\n"
                            + "  .main-nav a { color: var(--accent); text-decoration: none; }\n"
                            + "  .byline { color: #666; font-size: .9em; }\n"
                            + "  pre { background: #f4f4f4; padding: .75rem; overflow-x: auto; }\n"
                            + "  @media (max-width: 600px) { .main-nav ul { font-size: .9em; } }\n";
            case CLASSIC ->
                    "\n#wrapper { width: 960px; margin: 0 auto; background: #fff; }\n"
                            + "#banner { background: "
                            + s.accent()
                            + "; color: #fff; padding: 12px; }\n"
                            + "#menu { padding: 6px 12px; border-bottom: 1px solid #ccc; }\n"
                            + "#menu a { color: "
                            + s.accent()
                            + "; }\n"
                            + "#content { padding: 12px; }\n"
                            + "#footer { font-size: 11px; color: #777; padding: 12px; }\n";
            case MINIMAL ->
                    "\n"
                        + "  body { font: 15px/1.5 sans-serif; max-width: 42rem; margin: 2rem auto;"
                        + " }\n"
                        + "  .notice { font-size: .85em; color: #555; border-bottom: 1px solid"
                        + " #ddd; }\n"
                        + "  @media print { .notice { display: none; } }\n";
        };
    }

    static String headScript(Site s) {
        String prop = s.host().replace('.', '_');
        return switch (s.layout()) {
            case MODERN ->
                    "\n  window.dataLayer = window.dataLayer || [];\n"
                            + "  function gtag(){ dataLayer.push(arguments); }\n"
                            + "  gtag('js', new Date());\n"
                            + "  gtag('config', '"
                            + prop
                            + "', { anonymize_ip: true });\n";
            case CLASSIC ->
                    "\nvar _stats = _stats || [];\n"
                            + "_stats.push(['site', '"
                            + prop
                            + "']);\n"
                            + "_stats.push(['page', document.location.pathname]);\n";
            case MINIMAL -> "\n  document.documentElement.className = 'js';\n";
        };
    }

    /** A whole HTML page of {@code site} around {@code mainHtml}. */
    static String page(Site s, String pageTitle, String url, String fetchedDate, String mainHtml) {
        StringBuilder out = new StringBuilder(mainHtml.length() + 3000);
        String title = esc(s.title(pageTitle));
        String notice =
                s.notice() == null
                        ? null
                        : s.notice().replace("{url}", url).replace("{date}", fetchedDate);
        switch (s.layout()) {
            case MODERN -> {
                out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n");
                out.append("<meta charset=\"utf-8\">\n");
                out.append(
                        "<meta name=\"viewport\" content=\"width=device-width,"
                                + " initial-scale=1\">\n");
                out.append("<title>").append(title).append("</title>\n");
                out.append("<link rel=\"canonical\" href=\"").append(url).append("\">\n");
                out.append("<style>").append(css(s)).append("</style>\n");
                out.append("<script>").append(headScript(s)).append("</script>\n");
                out.append("</head>\n<body>\n");
                out.append("<header class=\"site-header\">\n  <a class=\"logo\" href=\"/\">");
                out.append(esc(s.name())).append("</a>\n");
                if (s.tagline() != null) {
                    out.append("  <p class=\"tagline\">").append(esc(s.tagline()));
                    out.append("</p>\n");
                }
                out.append("</header>\n<nav class=\"main-nav\" aria-label=\"Main\">\n  <ul>\n");
                for (String item : s.nav()) {
                    out.append("    <li><a href=\"/").append(slug(item)).append("/\">");
                    out.append(esc(item)).append("</a></li>\n");
                }
                out.append("  </ul>\n</nav>\n");
                if (notice != null) {
                    out.append("<div class=\"notice\">").append(esc(notice)).append("</div>\n");
                }
                out.append("<main id=\"content\">\n").append(mainHtml).append("</main>\n");
                if (s.asideTitle() != null) {
                    out.append("<aside>\n  <h2>").append(esc(s.asideTitle())).append("</h2>\n");
                    out.append("  <ul>\n");
                    for (String item : s.aside()) {
                        out.append("    <li><a href=\"/r/").append(slug(item)).append("\">");
                        out.append(esc(item)).append("</a></li>\n");
                    }
                    out.append("  </ul>\n</aside>\n");
                }
                out.append("<footer class=\"site-footer\">\n  <p>").append(esc(s.footer()));
                out.append("</p>\n</footer>\n");
                out.append(
                        "<script async src=\"https://static.example.com/js/analytics.js\">"
                                + "</script>\n");
                out.append("</body>\n</html>\n");
            }
            case CLASSIC -> {
                out.append(
                        "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\""
                            + " \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">\n");
                out.append("<html xmlns=\"http://www.w3.org/1999/xhtml\">\n<head>\n");
                out.append(
                        "<meta http-equiv=\"Content-Type\" content=\"text/html;"
                                + " charset=utf-8\" />\n");
                out.append("<title>").append(title).append("</title>\n");
                out.append("<style type=\"text/css\">").append(css(s)).append("</style>\n");
                out.append("<script type=\"text/javascript\">").append(headScript(s));
                out.append("</script>\n</head>\n<body>\n<div id=\"wrapper\">\n");
                out.append("<div id=\"banner\"><span class=\"logo\">").append(esc(s.name()));
                out.append("</span><div class=\"tagline\">").append(esc(s.tagline()));
                out.append("</div></div>\n<div id=\"menu\">");
                for (int i = 0; i < s.nav().size(); i++) {
                    if (i > 0) {
                        out.append(" | ");
                    }
                    String item = s.nav().get(i);
                    out.append("<a href=\"/").append(slug(item)).append(".html\">");
                    out.append(esc(item)).append("</a>");
                }
                out.append("</div>\n<!-- content starts -->\n<div id=\"content\">\n");
                out.append(mainHtml).append("</div>\n<!-- content ends -->\n");
                out.append("<div id=\"footer\">").append(esc(s.footer())).append("</div>\n");
                out.append("</div>\n</body>\n</html>\n");
            }
            case MINIMAL -> {
                out.append("<!doctype html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n");
                out.append("<title>").append(title).append("</title>\n");
                out.append("<style>").append(css(s)).append("</style>\n");
                out.append("<script>").append(headScript(s)).append("</script>\n");
                out.append("</head>\n<body>\n");
                if (notice != null) {
                    out.append("<p class=\"notice\">").append(inlineLink(notice, url));
                    out.append("</p>\n");
                }
                out.append(mainHtml);
                out.append("<hr>\n<p class=\"notice\"><small>").append(esc(s.footer()));
                out.append("</small></p>\n</body>\n</html>\n");
            }
        }
        return out.toString();
    }

    /** Escaped text in which the first occurrence of {@code url} becomes a link. */
    private static String inlineLink(String text, String url) {
        int at = text.indexOf(url);
        if (at < 0) {
            return esc(text);
        }
        return esc(text.substring(0, at))
                + "<a href=\""
                + url
                + "\">"
                + esc(url)
                + "</a>"
                + esc(text.substring(at + url.length()));
    }

    static String slug(String s) {
        String slug =
                s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        return slug.length() > 48 ? slug.substring(0, 48).replaceAll("-$", "") : slug;
    }

    /** The article as a plain-text file, paragraphs wrapped at 72 columns. */
    static String plainText(Article a, String header, String footer) {
        StringBuilder out = new StringBuilder();
        if (header != null) {
            out.append(header).append("\n\n");
        }
        out.append(a.title()).append('\n').append("=".repeat(a.title().length())).append("\n");
        if (a.byline() != null) {
            out.append(a.byline()).append('\n');
        }
        for (Block b : a.blocks()) {
            out.append('\n');
            switch (b.kind()) {
                case H2 ->
                        out.append(b.text())
                                .append('\n')
                                .append("-".repeat(b.text().length()))
                                .append('\n');
                case P -> out.append(wrap(b.text(), "", "")).append('\n');
                case UL -> {
                    for (String item : b.lines()) {
                        out.append(wrap(item, "  * ", "    ")).append('\n');
                    }
                }
                case OL -> {
                    for (int i = 0; i < b.lines().size(); i++) {
                        out.append(wrap(b.lines().get(i), "  " + (i + 1) + ". ", "     "));
                        out.append('\n');
                    }
                }
                case CODE -> {
                    for (String line : b.lines()) {
                        out.append("    ").append(line).append('\n');
                    }
                }
            }
        }
        if (footer != null) {
            out.append("\n").append(footer).append('\n');
        }
        return out.toString();
    }

    static String wrap(String text, String first, String rest) {
        StringBuilder out = new StringBuilder(first);
        int column = first.length();
        boolean lineStart = true;
        for (String word : text.split(" ")) {
            if (!lineStart && column + 1 + word.length() > 72) {
                out.append('\n').append(rest);
                column = rest.length();
                lineStart = true;
            }
            if (!lineStart) {
                out.append(' ');
                column++;
            }
            out.append(word);
            column += word.length();
            lineStart = false;
        }
        return out.toString();
    }

    /** A digest page: a heading, an introduction and whole articles one after the other. */
    static String digestHtml(String heading, String intro, List<Article> articles) {
        StringBuilder out = new StringBuilder();
        out.append("<h1>").append(esc(heading)).append("</h1>\n");
        out.append("<p class=\"intro\">").append(esc(intro)).append("</p>\n");
        for (int i = 0; i < articles.size(); i++) {
            if (i > 0) {
                out.append("<hr class=\"divider\">\n");
            }
            out.append(articleHtml(articles.get(i), 2, "digest-item"));
        }
        return out.toString();
    }

    /** An index page: headlines with the first sentence of each article as a teaser. */
    static String indexHtml(String heading, List<Article> articles) {
        StringBuilder out = new StringBuilder();
        out.append("<h1>").append(esc(heading)).append("</h1>\n<ul class=\"teasers\">\n");
        for (Article a : articles) {
            out.append("  <li>\n    <h2><a href=\"/").append(slug(a.title())).append("\">");
            out.append(esc(a.title())).append("</a></h2>\n");
            out.append("    <p>").append(inline(firstSentence(a))).append("</p>\n  </li>\n");
        }
        out.append("</ul>\n");
        return out.toString();
    }

    static String firstSentence(Article a) {
        for (Block b : a.blocks()) {
            if (b.kind() == BlockKind.P) {
                String text = b.text();
                int end = text.indexOf(". ");
                return end < 0 ? text : text.substring(0, end + 1);
            }
        }
        return "";
    }

    static String notFoundHtml(String path, List<String> popular) {
        StringBuilder out = new StringBuilder();
        out.append("<div class=\"error-page\">\n<h1>Page not found</h1>\n");
        out.append("<p>Sorry, we could not find <code>").append(esc(path)).append("</code>.");
        out.append(
                " The page may have moved, or the link you followed may be out of date.</p>\n"
                        + "<p>Try searching our archive, browse the sections above, or start again"
                        + " from the <a href=\"/\">front page</a>.</p>\n");
        out.append("<h2>Most read this week</h2>\n<ol>\n");
        for (String title : popular) {
            out.append("  <li><a href=\"/").append(slug(title)).append("\">");
            out.append(esc(title)).append("</a></li>\n");
        }
        out.append("</ol>\n</div>\n");
        return out.toString();
    }

    // ---------------------------------------------------------------------------------------
    // The crawl: documents, their relations, fetch times.
    // ---------------------------------------------------------------------------------------

    /** One line of the crawl. */
    static final class Doc {
        final String key;
        String id;
        String url;
        String contentType;
        String content;
        Instant fetchedAt;

        /** fetchedAt as written, when not the plain UTC instant (an offset date-time). */
        String fetchedAtText;

        final Set<String> families = new LinkedHashSet<>();
        String description;

        /** The base article, for the word-count check (null for derived and short pages). */
        Article base;

        /** The whole line, for a malformed record. */
        String rawLine;

        String expectedReason;
        int line;
        ShingleSet shingles;

        Doc(String key) {
            this.key = key;
        }

        boolean parsesAsDocument() {
            return rawLine == null || expectedReason.equals("NO_TEXT");
        }

        String fetched() {
            return fetchedAtText != null ? fetchedAtText : fetchedAt.toString();
        }
    }

    /** A pair of documents and their exact similarity. */
    static final class Pair {
        final Doc a;
        final Doc b;
        final String kind;
        final String note;
        double jaccard;
        double aInB;
        double bInA;

        Pair(Doc a, Doc b, String kind, String note) {
            this.a = a;
            this.b = b;
            this.kind = kind;
            this.note = note;
        }
    }

    /** A fetch time on crawl day {@code day} (0 = March 2, 2026) in hour {@code hour} (UTC). */
    private Instant at(int day, int hour) {
        return START.plusSeconds(day * 86_400L + hour * 3_600L + random.nextInt(3_600));
    }

    private static String fetchDate(Instant t) {
        return DateTimeFormatter.ofPattern("MMMM d, yyyy", Locale.ENGLISH)
                .withZone(ZoneOffset.UTC)
                .format(t);
    }

    private Doc html(
            String key,
            String id,
            Site site,
            Article a,
            Instant t,
            String family,
            String description) {
        Doc d = new Doc(key);
        d.id = id;
        d.url = "https://" + id;
        d.contentType = "text/html";
        d.fetchedAt = t;
        d.content = page(site, a.title(), d.url, fetchDate(t), articleHtml(a, 1, "post"));
        if (family != null) {
            d.families.add(family);
        }
        d.description = description;
        docs.add(d);
        return d;
    }

    private Doc original(String key, String id, Site site, String markup, Instant t) {
        Article a = Article.parse(markup);
        Doc d = html(key, id, site, a, t, key, "original: " + a.title());
        d.base = a;
        return d;
    }

    /** The same page (same id and URL) fetched again later, with other content. */
    private Doc recrawl(String key, Doc of, Site site, Article a, Instant t, String description) {
        if (!t.isAfter(of.fetchedAt)) {
            throw new IllegalStateException(key + " must be fetched after " + of.key);
        }
        Doc d = html(key, of.id, site, a, t, null, description);
        d.families.addAll(of.families);
        return d;
    }

    private Doc text(
            String key, String id, String content, Instant t, String family, String description) {
        Doc d = new Doc(key);
        d.id = id;
        d.url = "https://" + id;
        d.contentType = "text/plain";
        d.content = content;
        d.fetchedAt = t;
        d.families.add(family);
        d.description = description;
        docs.add(d);
        return d;
    }

    private Doc custom(String key, String id, String content, Instant t, String description) {
        Doc d = new Doc(key);
        d.id = id;
        d.url = "https://" + id;
        d.contentType = "text/html";
        d.content = content;
        d.fetchedAt = t;
        d.description = description;
        docs.add(d);
        return d;
    }

    private Doc malformed(String key, Instant t, String reason, String description, String line) {
        Doc d = new Doc(key);
        d.fetchedAt = t;
        d.rawLine = line;
        d.expectedReason = reason;
        d.description = description;
        docs.add(d);
        return d;
    }

    private void pair(Doc a, Doc b, String kind, String note) {
        pairs.add(new Pair(a, b, kind, note));
    }

    /** Builds every document and the intended pairs (fetch times drawn in a fixed order). */
    void build() {
        // --- Millbrook Courier: a news story, its mirror on an aggregator, a print view, a
        // re-crawl with an update, and a weekly digest that contains it whole.
        Doc concert =
                original(
                        "concert",
                        "news.example.org/2026/03/youth-orchestra-winter-concert-review",
                        COURIER,
                        CONCERT,
                        at(0, 11));
        Doc bridge =
                original(
                        "bridge",
                        "news.example.org/2026/03/elm-street-bridge-repairs",
                        COURIER,
                        BRIDGE,
                        at(0, 14));
        Article bridgeArticle = Article.parse(BRIDGE);
        Doc bridgeWire =
                html(
                        "bridge-newswire",
                        "newswire.example.com/local/millbrook/elm-street-bridge-to-close-for-six-weeks",
                        NEWSWIRE,
                        bridgeArticle,
                        at(0, 12),
                        "bridge",
                        "the bridge story on a news aggregator, with a heavy template (crawled"
                                + " before the original)");
        pair(bridge, bridgeWire, "mirror", "same article, aggregator template with many links");
        Doc bridgePrint =
                html(
                        "bridge-print",
                        "news.example.org/print/2026/03/elm-street-bridge-repairs",
                        COURIER_PRINT,
                        bridgeArticle,
                        at(1, 20),
                        "bridge",
                        "print view of the bridge story");
        pair(bridge, bridgePrint, "mirror", "print view: same article, minimal template");
        String bridgeUpdated =
                edit(BRIDGE, "March 2, 2026", "March 2, 2026 | Updated March 11, 2026")
                        + "\n## Update\nAbout sixty residents came to the open session on"
                        + " Tuesday. The town agreed to keep the temporary bus stop on Mill Road"
                        + " lit at night and to post photos of the work online every Friday.\n";
        Doc bridgeRecrawl =
                recrawl(
                        "bridge-recrawl",
                        bridge,
                        COURIER,
                        Article.parse(bridgeUpdated),
                        at(9, 8),
                        "re-crawl of the bridge story: an update paragraph added");
        pair(bridge, bridgeRecrawl, "re-crawl", "same id and URL; an update section appended");

        Doc garden =
                original(
                        "garden",
                        "news.example.org/2026/03/pike-street-garden-doubles-plots",
                        COURIER,
                        GARDEN,
                        at(1, 10));

        // --- Upper Valley Weather Desk: an advisory, re-crawled twice as it changes, and a
        // newspaper repost of the first version.
        Doc weather =
                original(
                        "weather",
                        "weather.example.net/advisories/upper-valley-winter-storm",
                        WEATHER_DESK,
                        WEATHER,
                        at(3, 10));
        Article weatherArticle = Article.parse(WEATHER);
        Doc weatherRepost =
                custom(
                        "weather-courier",
                        "news.example.org/2026/03/winter-storm-advisory-thursday",
                        page(
                                COURIER,
                                weatherArticle.title(),
                                "https://news.example.org/2026/03/winter-storm-advisory-thursday",
                                "",
                                "<p class=\"kicker\">The following advisory was issued by the"
                                        + " Upper Valley Weather Desk.</p>\n"
                                        + articleHtml(weatherArticle, 1, "post")),
                        at(3, 12),
                        "the advisory reposted by the Courier, with one line of introduction");
        weatherRepost.families.add("weather");
        // A local-time fetch stamp: an ISO-8601 offset date-time, which the parser accepts.
        weatherRepost.fetchedAtText =
                weatherRepost
                        .fetchedAt
                        .atOffset(ZoneOffset.ofHours(-5))
                        .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        pair(weather, weatherRepost, "mirror", "same advisory in the newspaper's template");
        String warning = WEATHER;
        warning =
                edit(
                        warning,
                        "# Winter storm advisory for the upper valley",
                        "# Winter storm warning for the upper valley");
        warning = edit(warning, "Issued 4:10 a.m. Thursday", "Issued 3:45 p.m. Thursday");
        warning =
                edit(
                        warning,
                        "A winter storm advisory is in effect from 6 p.m. Thursday until 10 a.m."
                                + " Friday",
                        "The winter storm advisory has been upgraded to a winter storm warning,"
                                + " in effect from 6 p.m. Thursday until 1 p.m. Friday,");
        warning =
                edit(
                        warning,
                        "Total accumulations of 4 to 7 inches are expected in the\nvalley, with 6"
                                + " to 10 inches above 1,500 feet. Snowfall rates may reach one"
                                + " inch per\nhour between midnight and 4 a.m.",
                        "Total accumulations of 8 to 12 inches are expected in the valley, with"
                                + " 12 to 16 inches above 1,500 feet. Snowfall rates may reach two"
                                + " inches per hour between midnight and 5 a.m.");
        warning =
                edit(
                        warning,
                        "Roads will become snow covered and slippery, and the Friday morning"
                                + " commute is likely\nto be difficult.",
                        "Travel will be very difficult to impossible overnight, and the Friday"
                                + " morning commute will be affected. Consider working from home if"
                                + " you can.");
        warning = edit(warning, "until 2 p.m. Friday", "until 6 p.m. Friday");
        warning =
                edit(
                        warning,
                        "The next update will be issued by 4 p.m. Thursday",
                        "The next update will be issued by 4 a.m. Friday");
        Doc weatherWarning =
                recrawl(
                        "weather-recrawl-warning",
                        weather,
                        WEATHER_DESK,
                        Article.parse(warning),
                        at(3, 21),
                        "re-crawl: the advisory upgraded to a warning, totals and times changed");
        pair(
                weather,
                weatherWarning,
                "re-crawl",
                "upgraded to a warning; several sentences changed");
        Doc weatherExpired =
                recrawl(
                        "weather-recrawl-expired",
                        weather,
                        WEATHER_DESK,
                        Article.parse(
                                """
                                # Winter storm warning has expired
                                @ Issued 10:05 a.m. Friday, March 6, 2026, by the Upper Valley Weather Desk

                                The winter storm warning for the upper valley expired at 10 a.m.
                                Snow has ended everywhere except on the highest terrain of the
                                Cobalt Hills, where light flurries will end by noon. Storm totals
                                ranged from 9 inches in Millbrook to 15 inches at Ridge Farm.

                                ## Precautions
                                - Check on elderly neighbours and anyone who relies on electric medical equipment.
                                - Never run a generator indoors or in an attached garage.

                                The Millbrook parking ban stays in effect until 6 p.m. Friday.
                                No further updates will be issued for this storm.
                                """),
                        at(4, 15),
                        "re-crawl: the warning has expired, short new text");
        pair(weather, weatherExpired, "re-crawl", "the page now says the warning has expired");

        // --- Millbrook Public Library: hours page re-crawled after a change, plus a short
        // boilerplate-heavy page of the same site.
        Doc hours =
                original(
                        "library-hours",
                        "library.example.net/visit/hours",
                        LIBRARY,
                        LIBRARY_HOURS,
                        at(0, 7));
        String hoursChanged = LIBRARY_HOURS;
        hoursChanged = edit(hoursChanged, "February 20, 2026", "March 9, 2026");
        hoursChanged = edit(hoursChanged, "Sunday: 1 p.m. to 5 p.m.", "Sunday: noon to 5 p.m.");
        hoursChanged =
                edit(
                        hoursChanged,
                        "- Closed Sunday and Monday\n",
                        "- Closed Sunday and Monday\n\n"
                            + "The Eastside Branch will be closed from April 6 to April 10 while"
                            + " new carpet is laid. Holds can be picked up at the Main Library that"
                            + " week.\n");
        Doc hoursRecrawl =
                recrawl(
                        "library-hours-recrawl",
                        hours,
                        LIBRARY,
                        Article.parse(hoursChanged),
                        at(8, 7),
                        "re-crawl: date updated, Sunday hours changed, a closure notice added");
        pair(hours, hoursRecrawl, "re-crawl", "date, one line of hours and a two-sentence notice");
        Doc contact =
                original(
                        "library-contact",
                        "library.example.net/visit/contact",
                        LIBRARY,
                        LIBRARY_CONTACT,
                        at(2, 13));
        contact.base = null; // a short page: not a base article
        contact.description = "a short, template-heavy page of the library site";

        // --- The Weekday Kitchen: a recipe, its print view, a copy on a recipe aggregator, and
        // a plain-text recipe card.
        Doc soup =
                original(
                        "lentil-soup",
                        "kitchen.example.com/recipes/smoky-red-lentil-soup",
                        KITCHEN,
                        LENTIL_SOUP,
                        at(1, 8));
        Article soupArticle = Article.parse(LENTIL_SOUP);
        Doc soupPrint =
                html(
                        "lentil-soup-print",
                        "kitchen.example.com/recipes/smoky-red-lentil-soup/print",
                        KITCHEN_PRINT,
                        soupArticle,
                        at(1, 9),
                        "lentil-soup",
                        "print view of the recipe");
        pair(soup, soupPrint, "mirror", "print view: same recipe, minimal template");
        Doc soupBox =
                html(
                        "lentil-soup-recipebox",
                        "recipebox.example.net/recipe/88213/smoky-red-lentil-soup",
                        RECIPEBOX,
                        soupArticle,
                        at(4, 18),
                        "lentil-soup",
                        "the recipe on a recipe aggregator");
        pair(soup, soupBox, "mirror", "same recipe, aggregator template with related links");
        Doc soupText =
                text(
                        "lentil-soup-txt",
                        "kitchen.example.com/recipes/smoky-red-lentil-soup.txt",
                        plainText(
                                soupArticle,
                                "The Weekday Kitchen - recipe card",
                                "https://kitchen.example.com/recipes/smoky-red-lentil-soup"),
                        at(6, 3),
                        "lentil-soup",
                        "the recipe as a plain-text card");
        pair(soup, soupText, "plain-text", "the recipe text without any page template");

        // --- Harbor Outfitters: a product page, its colour variant, a marketplace listing and
        // a re-crawl.
        Doc jacket =
                original(
                        "rain-jacket",
                        "shop.example.com/p/harbor-shell-rain-jacket-mens",
                        SHOP,
                        RAIN_JACKET,
                        at(0, 16));
        Doc jacketGreen =
                html(
                        "rain-jacket-green",
                        "shop.example.com/p/harbor-shell-rain-jacket-mens?colour=forest-green",
                        SHOP,
                        Article.parse(
                                edit(
                                        RAIN_JACKET,
                                        "Colour: Slate Blue | Item 40-2217-SB | $149.00",
                                        "Colour: Forest Green | Item 40-2217-FG | Sale $119.00,"
                                                + " was $149.00")),
                        at(2, 4),
                        "rain-jacket",
                        "the colour variant of the product: colour, item number and price");
        pair(jacket, jacketGreen, "light-edit", "colour, item number and price differ");
        Doc jacketHub =
                html(
                        "rain-jacket-markethub",
                        "markethub.example.net/item/40-2217-SB",
                        MARKETHUB,
                        Article.parse(RAIN_JACKET),
                        at(5, 22),
                        "rain-jacket",
                        "the product on a marketplace, with a heavy template");
        pair(jacket, jacketHub, "mirror", "same listing text, marketplace template");
        String jacketLater = edit(RAIN_JACKET, "waterprof", "waterproof");
        jacketLater =
                edit(
                        jacketLater,
                        "4.6 out of 5 stars, based on 212 reviews.",
                        "4.7 out of 5 stars, based on 219 reviews.");
        Doc jacketRecrawl =
                recrawl(
                        "rain-jacket-recrawl",
                        jacket,
                        SHOP,
                        Article.parse(jacketLater),
                        at(9, 16),
                        "re-crawl: a typo fixed and the review count updated");
        pair(jacket, jacketRecrawl, "re-crawl", "typo fixed (waterprof), rating and count changed");
        Doc shipping =
                original(
                        "shop-shipping",
                        "shop.example.com/help/shipping-returns",
                        SHOP,
                        SHOP_SHIPPING,
                        at(3, 2));
        shipping.base = null;
        shipping.description = "a short, template-heavy page of the shop";

        // --- Crumb & Crust: a tutorial, copied by a blog (crawled first), scraped from the blog
        // by a content farm, filed again under another URL with reordered sections, and as text.
        Doc breadBlog =
                html(
                        "sourdough-breadnotes",
                        "breadnotes.example.com/2026/03/first-sourdough-loaf-weekend-schedule",
                        BREAD_NOTES,
                        Article.parse(SOURDOUGH),
                        at(0, 20),
                        "sourdough",
                        "the tutorial reposted on a blog (crawled before the original)");
        Doc sourdough =
                original(
                        "sourdough",
                        "crumb.example.net/guides/first-sourdough-loaf",
                        CRUMB,
                        SOURDOUGH,
                        at(1, 15));
        pair(sourdough, breadBlog, "mirror", "same tutorial on a blog with a small template");
        Article sourdoughArticle = Article.parse(SOURDOUGH);
        Doc sourdoughMoved =
                html(
                        "sourdough-reordered",
                        "crumb.example.net/recipes/weekend-sourdough-loaf",
                        CRUMB,
                        sourdoughArticle.withSections(0, 2, 3, 4, 5, 6, 7, 8, 1),
                        at(2, 11),
                        "sourdough",
                        "the tutorial filed as a recipe: ingredients first, 'Before you start'"
                                + " moved to the end");
        pair(sourdough, sourdoughMoved, "reordered", "two sections moved");
        Doc sourdoughText =
                text(
                        "sourdough-txt",
                        "crumb.example.net/guides/first-sourdough-loaf.txt",
                        plainText(sourdoughArticle, null, "(c) 2026 Crumb & Crust"),
                        at(3, 19),
                        "sourdough",
                        "the tutorial as plain text");
        pair(sourdough, sourdoughText, "plain-text", "the tutorial text only");
        Doc sourdoughFarm =
                html(
                        "sourdough-recipesdaily",
                        "recipesdaily.example.com/bread/your-first-sourdough-loaf",
                        RECIPES_DAILY,
                        sourdoughArticle,
                        at(7, 5),
                        "sourdough",
                        "the blog copy scraped by a content farm, with ads and links");
        pair(breadBlog, sourdoughFarm, "mirror", "a copy of a copy, heavy template");

        // --- Town of Millbrook: a history page, reused on a visitor page newest era first, and
        // an archived copy; a council summary that is unique.
        Doc history =
                original(
                        "town-history",
                        "town.example.org/about/history",
                        TOWN,
                        TOWN_HISTORY,
                        at(0, 10));
        Article historyArticle = Article.parse(TOWN_HISTORY);
        Doc historyVisit =
                html(
                        "town-history-reordered",
                        "town.example.org/visit/millbrook-through-the-years",
                        TOWN,
                        historyArticle.withSections(0, 5, 4, 3, 2, 1, 6),
                        at(4, 10),
                        "town-history",
                        "the same history on a visitor page, eras in reverse order");
        pair(history, historyVisit, "reordered", "five sections in reverse order");
        Doc historyMirror =
                html(
                        "town-history-mirror",
                        "mirror.example.net/town.example.org/about/history",
                        MIRROR,
                        historyArticle,
                        at(6, 12),
                        "town-history",
                        "an archived copy of the history page");
        pair(history, historyMirror, "mirror", "archive copy, minimal template");
        original(
                "council",
                "town.example.org/council/meeting-summary-2026-02-26",
                TOWN,
                COUNCIL,
                at(0, 15));

        // --- Upper Valley Trails: a trail page, last year's version, and a printable text.
        Doc trail =
                original(
                        "trail",
                        "trails.example.org/trails/cedar-ridge-loop",
                        TRAILS,
                        TRAIL,
                        at(1, 6));
        String trail2025 = TRAIL;
        trail2025 =
                edit(
                        trail2025,
                        "The footbridge over Brandt Brook near the end of the loop is closed for"
                                + " repairs until\nMay 15, 2026. Use the yellow-blazed bypass until"
                                + " then.",
                        "Part of the lower trail along Brandt Brook was rerouted in October 2025"
                                + " after a washout. Follow the new blue blazes and ignore the old"
                                + " painted markers.");
        trail2025 =
                edit(
                        trail2025,
                        "Parking along the road is not allowed and cars\nwill be towed.",
                        "Please do not park along the road.");
        trail2025 =
                edit(
                        trail2025,
                        "Black flies are heavy in late May and June.",
                        "Expect black flies from mid-May to the end of June.");
        Doc trailOld =
                html(
                        "trail-2025",
                        "trails.example.org/archive/2025/cedar-ridge-loop",
                        TRAILS,
                        Article.parse(trail2025),
                        at(5, 14),
                        "trail",
                        "last year's version of the trail page in the archive: conditions and two"
                                + " other sentences differ");
        pair(trail, trailOld, "light-edit", "three sentences differ");
        Doc trailText =
                text(
                        "trail-txt",
                        "trails.example.org/trails/cedar-ridge-loop/printable.txt",
                        plainText(
                                Article.parse(TRAIL),
                                "UPPER VALLEY TRAILS ASSOCIATION - printable trail description",
                                null),
                        at(2, 22),
                        "trail",
                        "the trail page as printable text");
        pair(trail, trailText, "plain-text", "the trail description without the page template");

        // --- Lattice DB: release notes (re-crawled, mirrored, as text), a tutorial (as text
        // and reordered), and a newsletter that contains both whole.
        Doc release =
                original(
                        "release",
                        "lattice.example.com/blog/2026/02/lattice-3-4-0-released",
                        LATTICE,
                        RELEASE,
                        at(0, 18));
        Article releaseArticle = Article.parse(RELEASE);
        Doc releaseText =
                text(
                        "release-txt",
                        "lattice.example.com/downloads/3.4.0/RELEASE-NOTES.txt",
                        plainText(releaseArticle, null, null),
                        at(1, 23),
                        "release",
                        "the release notes as the text file in the download directory");
        pair(release, releaseText, "plain-text", "release notes without the page template");
        Doc releaseMirror =
                html(
                        "release-mirror",
                        "mirror.example.net/lattice.example.com/blog/2026/02/lattice-3-4-0-released",
                        MIRROR,
                        releaseArticle,
                        at(3, 6),
                        "release",
                        "an archived copy of the release notes");
        pair(release, releaseMirror, "mirror", "archive copy, minimal template");
        Doc releaseRecrawl =
                recrawl(
                        "release-recrawl",
                        release,
                        LATTICE,
                        Article.parse(
                                edit(
                                        RELEASE,
                                        "## Upgrading",
                                        "## Known issues\n"
                                            + "- On macOS, tab completion in the shell does not"
                                            + " work with the system's libedit. Install Lattice"
                                            + " from the package manager instead; a fix is planned"
                                            + " for 3.4.1.\n\n"
                                            + "## Upgrading")),
                        at(7, 18),
                        "re-crawl: a 'Known issues' section added");
        pair(release, releaseRecrawl, "re-crawl", "a new section of two sentences");
        Doc cli =
                original(
                        "cli-tutorial",
                        "lattice.example.com/docs/getting-started-cli",
                        LATTICE,
                        CLI_TUTORIAL,
                        at(2, 8));
        Article cliArticle = Article.parse(CLI_TUTORIAL);
        Doc cliMoved =
                html(
                        "cli-tutorial-reordered",
                        "lattice.example.com/docs/tutorials/cli-quickstart",
                        LATTICE,
                        cliArticle.withSections(0, 6, 1, 2, 3, 5, 4),
                        at(2, 9),
                        "cli-tutorial",
                        "the tutorial under a second docs URL, with 'Next steps' first and"
                                + " 'Export results' before 'Run queries'");
        pair(cli, cliMoved, "reordered", "two sections moved");
        Doc cliText =
                text(
                        "cli-tutorial-txt",
                        "lattice.example.com/downloads/3.4.0/GETTING-STARTED.txt",
                        plainText(cliArticle, null, null),
                        at(4, 1),
                        "cli-tutorial",
                        "the tutorial as a text file in the download directory");
        pair(cli, cliText, "plain-text", "tutorial text without the page template");
        Article community = Article.parse(LATTICE_COMMUNITY_CALL);
        Doc newsletter =
                custom(
                        "lattice-newsletter",
                        "lattice.example.com/newsletter/2026-03",
                        page(
                                LATTICE,
                                "Lattice DB newsletter, March 2026",
                                "https://lattice.example.com/newsletter/2026-03",
                                "",
                                digestHtml(
                                        "Lattice DB newsletter, March 2026",
                                        "News from the project this month: a new release, a"
                                            + " tutorial for newcomers, and the community call.",
                                        List.of(releaseArticle, cliArticle, community))),
                        at(6, 16),
                        "a newsletter page containing the release notes, the CLI tutorial and a"
                                + " short community piece");
        newsletter.families.add("release");
        newsletter.families.add("cli-tutorial");
        pair(release, newsletter, "contained", "the release notes inside the newsletter");
        pair(cli, newsletter, "contained", "the tutorial inside the newsletter");
        custom(
                "lattice-blog-index",
                "lattice.example.com/blog/",
                page(
                        LATTICE,
                        "Blog",
                        "https://lattice.example.com/blog/",
                        "",
                        indexHtml(
                                "Blog",
                                List.of(
                                        releaseArticle,
                                        Article.parse(
                                                """
                                                # Designing the incremental backup format
                                                Incremental backups needed a way to tell which files changed without reading them all again.
                                                """),
                                        community))),
                at(8, 4),
                "the blog's index page: titles and first sentences only");

        // --- Kestrel Hill Museum: an exhibition page, an older copy under /en/, and a
        // newsletter that contains it whole.
        Doc exhibitOld =
                html(
                        "exhibit-en",
                        "museum.example.org/en/exhibitions/clockwork-and-current",
                        MUSEUM,
                        Article.parse(
                                edit(
                                        edit(EXHIBIT, "received", "recieved"),
                                        "March 7 to September 27, 2026",
                                        "March 7 to August 30, 2026")),
                        at(0, 13),
                        "exhibit",
                        "an older copy under /en/: the old closing date and a typo (recieved)"
                                + " (crawled before the current page)");
        Doc exhibit =
                original(
                        "exhibit",
                        "museum.example.org/exhibitions/clockwork-and-current",
                        MUSEUM,
                        EXHIBIT,
                        at(1, 12));
        pair(exhibit, exhibitOld, "light-edit", "closing date updated, typo fixed");
        Doc museumLetter =
                custom(
                        "museum-newsletter",
                        "museum.example.org/newsletter/march-2026",
                        page(
                                MUSEUM,
                                "Museum newsletter: March 2026",
                                "https://museum.example.org/newsletter/march-2026",
                                "",
                                digestHtml(
                                        "Museum newsletter: March 2026",
                                        "Our new exhibition opens this month. Here is the full"
                                                + " guide, with news for members and a new loan in"
                                                + " the lobby.",
                                        List.of(
                                                Article.parse(EXHIBIT),
                                                Article.parse(MUSEUM_MEMBERS_EVENING),
                                                Article.parse(MUSEUM_LEDGER)))),
                        at(4, 14),
                        "the museum's newsletter: the exhibition page plus two short pieces");
        museumLetter.families.add("exhibit");
        pair(exhibit, museumLetter, "contained", "the exhibition text inside the newsletter");

        // --- Millbrook Courier digest and front page.
        Doc digest =
                custom(
                        "courier-digest",
                        "news.example.org/2026/03/this-week-in-millbrook",
                        page(
                                COURIER,
                                "This week in Millbrook",
                                "https://news.example.org/2026/03/this-week-in-millbrook",
                                "",
                                digestHtml(
                                        "This week in Millbrook",
                                        "Catch up on the week's local stories: the bridge closure,"
                                            + " more garden plots on Pike Street, and our review of"
                                            + " the youth orchestra.",
                                        List.of(
                                                Article.parse(BRIDGE),
                                                Article.parse(GARDEN),
                                                Article.parse(CONCERT)))),
                        at(5, 7),
                        "weekly digest containing three Courier stories whole");
        digest.families.add("bridge");
        digest.families.add("garden");
        digest.families.add("concert");
        pair(bridge, digest, "contained", "the bridge story inside the digest");
        pair(garden, digest, "contained", "the garden story inside the digest");
        pair(concert, digest, "contained", "the concert review inside the digest");
        custom(
                "courier-front",
                "news.example.org/",
                page(
                        COURIER,
                        "Local news",
                        "https://news.example.org/",
                        "",
                        indexHtml(
                                "Latest news",
                                List.of(
                                        bridgeArticle,
                                        weatherArticle,
                                        Article.parse(GARDEN),
                                        Article.parse(CONCERT)))),
                at(4, 6),
                "the front page: headlines and first sentences only");

        // --- Three "not found" pages of the Courier: the same template and message.
        List<String> popular =
                List.of(
                        "Elm Street Bridge to close for six weeks of deck repairs",
                        "Pike Street community garden doubles its plots",
                        "Letters: keep the canal path lit after dark");
        Doc nf1 =
                custom(
                        "not-found-1",
                        "news.example.org/2025/10/harvest-festival-parking",
                        page(
                                COURIER,
                                "Page not found",
                                "https://news.example.org/2025/10/harvest-festival-parking",
                                "",
                                notFoundHtml("/2025/10/harvest-festival-parking", popular)),
                        at(2, 3),
                        "a 'not found' page: template and error message only");
        Doc nf2 =
                custom(
                        "not-found-2",
                        "news.example.org/2024/06/old-mill-fire-photos",
                        page(
                                COURIER,
                                "Page not found",
                                "https://news.example.org/2024/06/old-mill-fire-photos",
                                "",
                                notFoundHtml("/2024/06/old-mill-fire-photos", popular)),
                        at(6, 2),
                        "a 'not found' page: template and error message only");
        Doc nf3 =
                custom(
                        "not-found-3",
                        "news.example.org/sport/scores/2023",
                        page(
                                COURIER,
                                "Page not found",
                                "https://news.example.org/sport/scores/2023",
                                "",
                                notFoundHtml("/sport/scores/2023", popular)),
                        at(8, 23),
                        "a 'not found' page: template and error message only");
        for (Doc d : List.of(nf1, nf2, nf3)) {
            d.families.add("not-found");
        }
        pair(nf1, nf2, "boilerplate", "two error pages of one site: only the missing path differs");
        pair(nf1, nf3, "boilerplate", "two error pages of one site: only the missing path differs");
        pair(nf2, nf3, "boilerplate", "two error pages of one site: only the missing path differs");

        // --- Millbrook Wheelers: a guide and the same guide reposted as club news with a new
        // title, introduction and ending.
        Doc bike =
                original(
                        "bike-flat",
                        "wheelers.example.org/guides/roadside-flat-fix",
                        WHEELERS,
                        BIKE_FLAT,
                        at(2, 17));
        String clinic = BIKE_FLAT;
        clinic =
                edit(
                        clinic,
                        "# How to fix a flat tyre at the roadside\n@ Millbrook Wheelers ride"
                                + " guides\n",
                        "# Roadside repair clinic: fixing a flat tyre\n@ Club news | March 9,"
                                + " 2026\n\nOur free roadside repair clinic is back on Saturday,"
                                + " March 21, at 10 a.m. in the Station Square bike shelter. To"
                                + " get you ready, here is our guide again.\n");
        clinic =
                edit(
                        clinic,
                        "Once you are home, patch the old tube so it can become your next spare.",
                        "Bring your own bike to the clinic and we will walk you through it. Spare"
                                + " tubes will be on sale at cost.");
        clinic =
                edit(
                        clinic,
                        "Practise once at home, on a dry evening, and\nthe real thing will feel"
                                + " much less stressful.",
                        "The clinic is the easiest way to practise before you need it.");
        Doc bikeClinic =
                html(
                        "bike-flat-clinic",
                        "wheelers.example.org/news/2026/03/roadside-repair-clinic",
                        WHEELERS,
                        Article.parse(clinic),
                        at(6, 8),
                        "bike-flat",
                        "the guide reposted as club news: new title, new first and last"
                                + " paragraphs, one sentence changed");
        pair(bike, bikeClinic, "light-edit", "title, introduction, ending and one sentence differ");

        // --- Millbrook Saturday Market: this week's page and last week's at a dated URL.
        String lastWeek = MARKET;
        lastWeek = edit(lastWeek, "Week of March 14, 2026", "Week of March 7, 2026");
        lastWeek =
                edit(
                        lastWeek,
                        "The market moves back outdoors this week after three months in the old"
                                + " depot, and the\ntables are starting to fill again.",
                        "This is our last Saturday in the old depot before the market moves back"
                                + " outdoors next week.");
        lastWeek =
                edit(
                        lastWeek,
                        "Look for the first\npea shoots and microgreens at the Two Creeks table.",
                        "Two Creeks has eggs again now that the days are longer.");
        lastWeek =
                edit(
                        lastWeek,
                        "Maple season is in full swing: the Lindqvist family\nstarted boiling on"
                                + " March 2, and this week they will have the first bottles of"
                                + " this\nyear's golden syrup, which has the most delicate flavour"
                                + " of the season.",
                        "Maple season has started: the Lindqvist family began boiling on March 2,"
                                + " and they hope to have the first syrup of the year next"
                                + " Saturday.");
        lastWeek =
                edit(
                        lastWeek,
                        "- Roast parsnips and carrots with a spoon of maple syrup and a pinch of"
                                + " chilli.",
                        "- Mash parsnips with plenty of butter and black pepper.");
        lastWeek =
                edit(
                        lastWeek,
                        "The Millbrook Wheelers will run a free bike check at the north entrance"
                                + " from 9 a.m. to\nnoon, to get bikes ready for spring.",
                        "The knife sharpener is back this week, at the table by the door.");
        Doc market =
                original("market", "market.example.com/this-week", MARKET_SITE, MARKET, at(9, 10));
        Doc marketOld =
                html(
                        "market-last-week",
                        "market.example.com/this-week/2026-03-07",
                        MARKET_SITE,
                        Article.parse(lastWeek),
                        at(4, 9),
                        "market",
                        "last week's page at a dated URL: about a third of the sentences differ");
        pair(market, marketOld, "light-edit", "six passages rewritten for another week");

        // --- Tern Coffee: the about page, and the home page with the same blocks reordered.
        Doc cafeHome =
                html(
                        "cafe-home",
                        "terncoffee.example.com/",
                        TERN,
                        Article.parse(CAFE).withSections(3, 0, 1, 4, 2),
                        at(2, 14),
                        "cafe",
                        "the home page: the about page's blocks in another order (crawled first)");
        Doc cafe = original("cafe", "terncoffee.example.com/about", TERN, CAFE, at(2, 15));
        pair(cafe, cafeHome, "reordered", "the same five blocks in another order");

        // --- Unique pages.
        original(
                "hawk-watch",
                "raptors.example.org/reports/2025-autumn-hawk-watch",
                RAPTORS,
                HAWK_WATCH,
                at(3, 16));
        original(
                "apartment",
                "homes.example.net/listings/88-chapel-street-unit-3",
                HOMES,
                APARTMENT,
                at(5, 11));
        original(
                "science-fair",
                "mhs.example.org/news/science-fair-2026",
                SCHOOL,
                SCIENCE_FAIR,
                at(1, 17));

        // --- Malformed lines.
        Instant t = at(2, 19);
        String truncated =
                line(
                        "news.example.org/2026/03/weekend-road-closures",
                        t,
                        "text/html",
                        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                                + "<title>Weekend road closures | Millbrook Courier</title>\n"
                                + "<style>body { font: 17px/1.6 Georgia, serif; }</style>\n"
                                + "</head>\n<body>\n<h1>Weekend road closures</h1>\n</body>\n"
                                + "</html>\n");
        malformed(
                "bad-truncated",
                t,
                "MALFORMED_JSON",
                "invalid JSON: the line stops in the middle of the content string (an"
                        + " interrupted write)",
                truncated.substring(0, truncated.lastIndexOf("Weekend road closu") + 18));
        t = at(5, 3);
        malformed(
                "bad-array",
                t,
                "NOT_AN_OBJECT",
                "a JSON array holding two records instead of one object",
                "["
                        + line(
                                "library.example.net/events/story-time",
                                t,
                                "text/plain",
                                "Story time for under-fives, Wednesdays at 10:30 a.m. in the"
                                        + " children's room.")
                        + ","
                        + line(
                                "library.example.net/events/chess-club",
                                t,
                                "text/plain",
                                "Chess club for all ages, Thursdays at 4 p.m. Boards provided.")
                        + "]");
        t = at(6, 21);
        Map<String, Object> noId = record(null, t, "text/html", null);
        noId.put("url", "https://shop.example.com/p/trail-runner-gloves");
        noId.put(
                "content",
                page(
                        SHOP,
                        "Trail Runner Gloves",
                        "https://shop.example.com/p/trail-runner-gloves",
                        "",
                        "<article class=\"post\">\n<h1>Trail Runner Gloves</h1>\n<p>Thin,"
                                + " touchscreen-friendly gloves for cold morning runs.</p>\n"
                                + "</article>\n"));
        malformed("bad-missing-id", t, "MISSING_ID", "no id field", json(noId));
        t = at(7, 12);
        Map<String, Object> noContent =
                record("lattice.example.com/docs/install", t, "text/html", null);
        noContent.put(
                "body",
                "<!DOCTYPE html><html><head><title>Installing Lattice DB</title></head><body>"
                        + "<h1>Installing Lattice DB</h1><p>Download the archive for your"
                        + " platform and unpack it.</p></body></html>");
        malformed(
                "bad-missing-content",
                t,
                "MISSING_CONTENT",
                "the page is in a field named \"body\" instead of \"content\"",
                json(noContent));
        t = at(8, 15);
        malformed(
                "bad-empty-content",
                t,
                "EMPTY_CONTENT",
                "content is the empty string (an empty HTTP response)",
                json(record("town.example.org/departments/parks", t, "text/html", "")));
        t = at(3, 4);
        String shell =
                "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                        + "<title></title>\n"
                        + "<link rel=\"stylesheet\" href=\"/static/app.3f9c.css\">\n"
                        + "<style>#root { min-height: 100vh; }</style>\n"
                        + "<script defer src=\"/static/app.3f9c.js\"></script>\n"
                        + "</head>\n<body>\n"
                        + "<noscript>You need to enable JavaScript to run this app.</noscript>\n"
                        + "<div id=\"root\"></div>\n"
                        + "<script>window.__CONFIG__ = {\"api\": \"/api/v2\"};</script>\n"
                        + "</body>\n</html>\n";
        Doc spa =
                malformed(
                        "bad-no-text",
                        t,
                        "NO_TEXT",
                        "valid JSON and HTML, but a single-page-app shell without a visible word:"
                                + " the parser accepts it, the signature operator dead-letters it",
                        line("app.example.com/dashboard", t, "text/html", shell));
        spa.id = "app.example.com/dashboard";
        spa.url = "https://app.example.com/dashboard";
        spa.contentType = "text/html";
        spa.content = shell;
    }

    private static Map<String, Object> record(
            String id, Instant t, String contentType, String content) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (id != null) {
            m.put("id", id);
            m.put("url", "https://" + id);
        }
        m.put("fetchedAt", t.toString());
        m.put("contentType", contentType);
        if (content != null) {
            m.put("content", content);
        }
        return m;
    }

    private static String line(String id, Instant t, String contentType, String content) {
        return json(record(id, t, contentType, content));
    }

    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    // ---------------------------------------------------------------------------------------
    // Crawl order, measurement and output.
    // ---------------------------------------------------------------------------------------

    private final List<Doc> outOfOrder = new ArrayList<>();
    private final List<Pair> measured = new ArrayList<>();

    /** Crawl order: by fetch time, then a few neighbouring lines swapped (late writes). */
    List<Doc> order() {
        List<Doc> ordered = new ArrayList<>(docs);
        ordered.sort((x, y) -> x.fetchedAt.compareTo(y.fetchedAt));
        int swaps = 0;
        Set<Doc> touched = new LinkedHashSet<>();
        while (swaps < 5) {
            int i = random.nextInt(ordered.size() - 1);
            Doc x = ordered.get(i);
            Doc y = ordered.get(i + 1);
            if (touched.contains(x) || touched.contains(y) || (x.id != null && x.id.equals(y.id))) {
                continue;
            }
            ordered.set(i, y);
            ordered.set(i + 1, x);
            touched.add(x);
            touched.add(y);
            outOfOrder.add(y); // y now comes first although it was fetched later
            swaps++;
        }
        for (int i = 0; i < ordered.size(); i++) {
            ordered.get(i).line = i + 1;
        }
        return ordered;
    }

    /** Shingles every document and computes the exact similarity of every pair to report. */
    void measure() {
        Shingler shingler = new Shingler(ShingleOptions.defaults());
        for (Doc d : docs) {
            if (d.parsesAsDocument()) {
                d.shingles =
                        ShingleSet.of(
                                shingler.shingleHashes(
                                        d.content, ContentType.detect(d.contentType, d.content)));
                if (d.rawLine != null && !d.shingles.isEmpty()) {
                    throw new IllegalStateException(d.key + " should have no text");
                }
            }
            if (d.base != null && (d.base.words() < 250 || d.base.words() > 700)) {
                throw new IllegalStateException(
                        d.key + " has " + d.base.words() + " words, not 250-700");
            }
        }
        Set<String> done = new LinkedHashSet<>();
        for (Pair p : pairs) {
            measured.add(oriented(p.a, p.b, p.kind, p.note));
            done.add(pairKey(p.a, p.b));
        }
        List<Doc> valid =
                docs.stream().filter(d -> d.shingles != null && !d.shingles.isEmpty()).toList();
        for (int i = 0; i < valid.size(); i++) {
            for (int j = i + 1; j < valid.size(); j++) {
                Doc a = valid.get(i);
                Doc b = valid.get(j);
                if (done.contains(pairKey(a, b))) {
                    continue;
                }
                boolean related = a.families.stream().anyMatch(b.families::contains);
                Pair p = oriented(a, b, related ? "related" : "incidental", null);
                if (related || p.jaccard >= 0.2 || Math.max(p.aInB, p.bInA) >= 0.5) {
                    measured.add(p);
                    done.add(pairKey(a, b));
                }
            }
        }
        measured.sort((x, y) -> x.a.line != y.a.line ? x.a.line - y.a.line : x.b.line - y.b.line);
    }

    private static String pairKey(Doc a, Doc b) {
        return a.line < b.line ? a.key + "|" + b.key : b.key + "|" + a.key;
    }

    /** The pair with the earlier line first, measured. */
    private static Pair oriented(Doc x, Doc y, String kind, String note) {
        Doc a = x.line < y.line ? x : y;
        Doc b = a == x ? y : x;
        Pair p = new Pair(a, b, kind, note);
        p.jaccard = Similarity.jaccard(a.shingles, b.shingles);
        p.aInB = Similarity.containment(a.shingles, b.shingles);
        p.bInA = Similarity.containment(b.shingles, a.shingles);
        return p;
    }

    String crawlText(List<Doc> ordered) {
        StringBuilder out = new StringBuilder();
        for (Doc d : ordered) {
            if (d.rawLine != null) {
                out.append(d.rawLine);
            } else {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", d.id);
                m.put("url", d.url);
                m.put("fetchedAt", d.fetched());
                m.put("contentType", d.contentType);
                m.put("content", d.content);
                out.append(json(m));
            }
            out.append('\n');
        }
        return out.toString();
    }

    String pairsCsv() {
        StringBuilder out =
                new StringBuilder(
                        "# Near-duplicate pairs of sample/crawl.jsonl with their exact similarity"
                            + " over word 5-shingle sets\n"
                            + "# (ShingleOptions.defaults()). Written by SampleCrawlGenerator;"
                            + " checked by SampleCrawlTest.\n"
                            + "# lineA < lineB are 1-based line numbers; containmentAinB = |A ∩ B|"
                            + " / |A|.\n"
                            + "lineA,lineB,idA,idB,kind,jaccard,containmentAinB,containmentBinA\n");
        for (Pair p : measured) {
            out.append(p.a.line).append(',').append(p.b.line).append(',');
            out.append(p.a.id).append(',').append(p.b.id).append(',').append(p.kind).append(',');
            out.append(p.jaccard).append(',').append(p.aInB).append(',').append(p.bInA);
            out.append('\n');
        }
        return out.toString();
    }

    private static String f3(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static String ref(Doc d) {
        return d.line + " `" + d.id + "`";
    }

    String readme(List<Doc> ordered, int bytes) {
        long valid = ordered.stream().filter(Doc::parsesAsDocument).count();
        long rejected = ordered.size() - valid;
        List<Doc> parsed = ordered.stream().filter(Doc::parsesAsDocument).toList();
        long html = parsed.stream().filter(d -> d.contentType.equals("text/html")).count();
        long plain = parsed.stream().filter(d -> d.contentType.equals("text/plain")).count();
        long ids = parsed.stream().map(d -> d.id).distinct().count();
        StringBuilder out = new StringBuilder();
        out.append(
                """
                # The sample crawl

                `crawl.jsonl` (in the jar as `sample/crawl.jsonl`) is a small, made-up web crawl for
                trying neardup and checking what it reports. Each line is one input record in the
                input format of `neardup run` ([input](../../../../docs/run.md#input)):
                `{"id", "url", "fetchedAt", "contentType", "content"}`. All
                text is original, written for this sample; every place, person, company and figure
                in it is invented, and all URLs are under example.org, example.com and example.net.

                This file, the crawl and `src/test/resources/sample-pairs.csv` are written by
                `src/test/java/dev/neardup/testing/SampleCrawlGenerator.java` (deterministic, fixed
                seed; see its header for how to re-run it), and `SampleCrawlTest` checks that they
                agree with each other.

                ## At a glance

                """);
        out.append("- ")
                .append(ordered.size())
                .append(" lines, ")
                .append(bytes)
                .append(" bytes.\n");
        out.append("- ")
                .append(valid)
                .append(" lines parse as documents (")
                .append(html)
                .append(" HTML, ")
                .append(plain)
                .append(" plain text, ")
                .append(ids)
                .append(" distinct ids: re-crawls repeat an id).")
                .append(" One of them is a page without a single visible word, which the job")
                .append(" sends to the dead letters as `NO_TEXT`, so expect ")
                .append(valid - 1)
                .append(" verdicts.\n");
        out.append("- ")
                .append(rejected)
                .append(" lines are rejected by the parser (dead letters `MALFORMED_JSON`,")
                .append(" `NOT_AN_OBJECT`, `MISSING_ID`, `MISSING_CONTENT`, `EMPTY_CONTENT`), so")
                .append(" expect ")
                .append(rejected + 1)
                .append(" dead letters in all.\n");
        out.append("- Fetch times run from March 2 to March 11, 2026, mostly increasing; lines ");
        out.append(
                String.join(
                        ", ",
                        outOfOrder.stream()
                                .sorted((x, y) -> x.line - y.line)
                                .map(d -> String.valueOf(d.line))
                                .toList()));
        out.append(
                " come just before a line fetched earlier (out of order by seconds to hours)."
                        + " Line "
                        + docs.stream()
                                .filter(d -> d.fetchedAtText != null)
                                .findFirst()
                                .orElseThrow()
                                .line
                        + " gives its fetch time with a UTC offset (-05:00) instead of `Z`.\n");
        out.append(
                """
                - Most copies come after their original, but not all: the aggregator copy of the
                  bridge story, the blog copy of the sourdough guide, the old `/en/` museum page
                  and the café's home page were fetched before the pages they duplicate.

                ## Similarities

                Similarities below are **exact**, computed over the sets of word 5-shingles of each
                document's text (HTML reduced to its visible text), with the project's own code:
                `new Shingler(ShingleOptions.defaults()).shingleHashes(content,
                ContentType.detect(contentType, content))`, `ShingleSet.of(...)` and
                `Similarity.jaccard` / `Similarity.containment`. C(A⊆B) is the containment of A
                in B, |A ∩ B| / |A|. Lines are numbered from 1; A is always the earlier line.

                The job estimates Jaccard from MinHash signatures, so its `similarity` differs from
                these values by a few hundredths (standard error sqrt(J(1-J)/K), about 0.035 at
                J = 0.8 with K = 128): pairs within about 0.07 of the threshold may or may not be
                reported in a given configuration.

                Kinds: **mirror** the same text on another site or in a print view (other nav,
                header, footer); **light-edit** a few sentences, a date or a typo changed;
                **reordered** the same sections or blocks in another order; **contained** a page
                included whole in a larger digest page (low Jaccard, containment near 1);
                **plain-text** the same text as `text/plain`; **re-crawl** the same id and URL
                fetched again later, changed; **boilerplate** pages that share only a template.

                A re-crawl keeps its id: the job treats it as a new version of the page, not as a
                duplicate of another document (in the current implementation the band buckets
                replace a member with the same id and report no candidate), so no alert is expected
                between two versions of one id. They are listed for reference.

                ### Pairs the sample was built to contain

                | A (line, id) | B (line, id) | kind | Jaccard | C(A⊆B) | C(B⊆A) | what differs |
                |---|---|---|---:|---:|---:|---|
                """);
        for (Pair p : measured) {
            if (!p.kind.equals("related") && !p.kind.equals("incidental")) {
                out.append("| ").append(ref(p.a)).append(" | ").append(ref(p.b)).append(" | ");
                out.append(p.kind).append(" | ").append(f3(p.jaccard)).append(" | ");
                out.append(f3(p.aInB)).append(" | ").append(f3(p.bInA)).append(" | ");
                out.append(p.note).append(" |\n");
            }
        }
        out.append(
                """

                ### Other pairs within the same family

                Copies of one article are also near-duplicates of each other (two mirrors, a
                re-crawl and a digest, ...). Every such pair:

                | A (line, id) | B (line, id) | Jaccard | C(A⊆B) | C(B⊆A) |
                |---|---|---:|---:|---:|
                """);
        for (Pair p : measured) {
            if (p.kind.equals("related")) {
                out.append("| ").append(ref(p.a)).append(" | ").append(ref(p.b)).append(" | ");
                out.append(f3(p.jaccard)).append(" | ").append(f3(p.aInB)).append(" | ");
                out.append(f3(p.bInA)).append(" |\n");
            }
        }
        double maxCross = 0;
        Pair maxPair = null;
        List<Doc> valid2 =
                docs.stream().filter(d -> d.shingles != null && !d.shingles.isEmpty()).toList();
        for (int i = 0; i < valid2.size(); i++) {
            for (int j = i + 1; j < valid2.size(); j++) {
                Doc a = valid2.get(i);
                Doc b = valid2.get(j);
                if (a.families.stream().noneMatch(b.families::contains)) {
                    double jac = Similarity.jaccard(a.shingles, b.shingles);
                    if (jac > maxCross) {
                        maxCross = jac;
                        maxPair = oriented(a, b, "incidental", null);
                    }
                }
            }
        }
        out.append(
                """

                ### Unrelated documents

                Documents of different families share little beyond a site template. Pairs
                of unrelated documents with Jaccard >= 0.2 or a containment >= 0.5 (these are
                also in the CSV, kind `incidental`):

                """);
        boolean any = false;
        for (Pair p : measured) {
            if (p.kind.equals("incidental")) {
                if (!any) {
                    out.append("| A (line, id) | B (line, id) | Jaccard | C(A⊆B) | C(B⊆A) |\n");
                    out.append("|---|---|---:|---:|---:|\n");
                }
                any = true;
                out.append("| ").append(ref(p.a)).append(" | ").append(ref(p.b)).append(" | ");
                out.append(f3(p.jaccard)).append(" | ").append(f3(p.aInB)).append(" | ");
                out.append(f3(p.bInA)).append(" |\n");
            }
        }
        if (!any) {
            out.append("None.\n");
        }
        out.append("\nThe highest Jaccard between unrelated documents is ")
                .append(f3(maxCross))
                .append(" (lines ")
                .append(maxPair.a.line)
                .append(" and ")
                .append(maxPair.b.line)
                .append(").\n");
        out.append(
                """

                ### Expected alerts at the default threshold (0.8)

                Pairs of different ids with an exact Jaccard of at least 0.8 (the later page by
                `fetchedAt` is the alert's `docId`, the earlier one its `duplicateOf`; for these
                pairs that is also the order of the lines). The job finds a pair with the
                probability `neardup tune` shows for its similarity, so most of the pairs near
                0.8 are not alerted:

                """);
        for (Pair p : measured) {
            if (p.jaccard >= 0.8 && !p.a.id.equals(p.b.id)) {
                out.append("- ")
                        .append(ref(p.b))
                        .append(" duplicates ")
                        .append(ref(p.a))
                        .append(": ")
                        .append(f3(p.jaccard))
                        .append(" (")
                        .append(p.kind)
                        .append(")\n");
            }
        }
        out.append("\nNear misses, different ids with 0.5 <= Jaccard < 0.8:\n\n");
        for (Pair p : measured) {
            if (p.jaccard >= 0.5 && p.jaccard < 0.8 && !p.a.id.equals(p.b.id)) {
                out.append("- ")
                        .append(ref(p.b))
                        .append(" and ")
                        .append(ref(p.a))
                        .append(": ")
                        .append(f3(p.jaccard))
                        .append(" (")
                        .append(p.kind)
                        .append(")\n");
            }
        }
        out.append(
                """

                The contained pairs (digest pages) have a low Jaccard and are not alerts for a
                Jaccard threshold; they are there for containment ([containment mode](../../../../docs/containment.md)).

                ## Malformed lines

                | line | what is wrong | expected dead-letter reason |
                |---:|---|---|
                """);
        for (Doc d : ordered) {
            if (d.rawLine != null) {
                out.append("| ").append(d.line).append(" | ").append(d.description);
                out.append(" | `").append(d.expectedReason).append("` |\n");
            }
        }
        out.append(
                """

                ## Every line

                | line | id | type | fetchedAt | what it is |
                |---:|---|---|---|---|
                """);
        for (Doc d : ordered) {
            if (d.rawLine == null
                    && d.description.startsWith("original: ")
                    && docs.stream()
                            .noneMatch(
                                    o ->
                                            o != d
                                                    && o.families.stream()
                                                            .anyMatch(d.families::contains))) {
                d.description = d.description.replace("original: ", "unrelated page: ");
            }
            if (d.rawLine != null && d.id == null) {
                out.append("| ").append(d.line).append(" | (malformed) | | ");
                out.append(d.fetchedAt).append(" | ").append(d.description).append(" |\n");
                continue;
            }
            out.append("| ").append(d.line).append(" | `").append(d.id).append("` | ");
            out.append(d.contentType.equals("text/html") ? "html" : "text").append(" | ");
            out.append(d.fetched()).append(" | ").append(d.description).append(" |\n");
        }
        return out.toString();
    }

    String summary(List<Doc> ordered, int bytes) {
        StringBuilder out = new StringBuilder();
        out.append(
                String.format(
                        Locale.ROOT,
                        "%d lines, %d bytes, %d parse as documents%n",
                        ordered.size(),
                        bytes,
                        ordered.stream().filter(Doc::parsesAsDocument).count()));
        for (Doc d : docs) {
            if (d.base != null) {
                out.append(
                        String.format(Locale.ROOT, "  %-16s %4d words%n", d.key, d.base.words()));
            }
        }
        for (Pair p : measured) {
            out.append(
                    String.format(
                            Locale.ROOT,
                            "%3d %3d %-12s J=%.3f  C(A<B)=%.3f C(B<A)=%.3f  %s / %s%n",
                            p.a.line,
                            p.b.line,
                            p.kind,
                            p.jaccard,
                            p.aInB,
                            p.bInA,
                            p.a.key,
                            p.b.key));
        }
        return out.toString();
    }

    // ---------------------------------------------------------------------------------------
    // The base articles. Original text written for this sample; every place, person, company
    // and figure in it is invented. Markup: "# title", "@ byline", "## heading", "- item",
    // "1. item", "| code line", blank line between paragraphs (wrapped lines are joined).
    // ---------------------------------------------------------------------------------------

    static final String BRIDGE =
            """
            # Elm Street Bridge to close for six weeks of deck repairs
            @ By Dana Whitlock, Millbrook Courier staff | March 2, 2026

            The Elm Street Bridge, the busiest of the three crossings over the Sable River in
            Millbrook, will close to all vehicle traffic from Monday, March 16, while crews replace
            a section of its concrete deck and repair two expansion joints. The town expects the
            work to take six weeks, weather permitting.

            Public works director Aaron Castellano told the council on Thursday that an inspection
            last autumn found water seeping through cracks near the north abutment. "The steel
            underneath is still sound, and we want to keep it that way," he said. "If we wait
            another winter, salt and meltwater will get into the beams and the repair becomes a
            replacement."

            ## What will change for drivers
            During the closure, traffic will be sent over the Mill Road crossing, about a mile
            upstream. Signs for the detour will go up a week before the work begins. The town
            estimates that the detour adds between five and twelve minutes to a typical trip
            across the river at rush hour.

            - Buses on routes 4 and 7 will follow the detour and skip the Elm Street and Water Street stops.
            - A temporary stop will open on Mill Road near the hardware store.
            - Delivery trucks over 20 tons must use the Route 9 bridge, because Mill Road has a lower weight limit.

            ## Pedestrians and cyclists
            One sidewalk will stay open for most of the project, separated from the work zone by
            a barrier. For about four days in the middle of the job, when the joints on the south
            side are cut out, the bridge will close to everyone. The town says it will announce
            those days at least 48 hours ahead on its website and through the emergency text
            service.

            ## Cost and schedule
            The repair is expected to cost $1.8 million, about two thirds of which comes from a
            state grant for bridge maintenance. The contract went to Sable Valley Construction,
            the lowest of four bids. The company repaired the Mill Road crossing in 2021, and that
            job finished nine days ahead of schedule.

            Councillor Ruth Ng asked whether work could happen at night to shorten the closure.
            Castellano said concrete work would continue into the evening when temperatures
            allow, but that noise rules and the need for the deck to cure limit how much time can
            be saved.

            Residents can ask questions at an open session at the town hall on Tuesday, March 10,
            from 6 to 8 p.m. Drawings of the repair and the detour map are available at the public
            works office on Grove Street.
            """;

    static final String LIBRARY_HOURS =
            """
            # Opening hours and holiday closures
            @ Last updated February 20, 2026

            The Main Library on Chapel Street and the Eastside Branch keep different hours. Both
            are closed on public holidays, and the book drops at each building are open around
            the clock.

            ## Main Library, 14 Chapel Street
            - Monday to Thursday: 9 a.m. to 8 p.m.
            - Friday: 9 a.m. to 6 p.m.
            - Saturday: 10 a.m. to 5 p.m.
            - Sunday: 1 p.m. to 5 p.m. (September to May only)

            The reading room on the second floor closes fifteen minutes before the building, so
            that staff can collect items left on the tables. Public computers shut down ten
            minutes before closing time; please save your work to a memory stick or to your email
            account.

            ## Eastside Branch, 302 Harlow Avenue
            - Tuesday and Thursday: noon to 7 p.m.
            - Wednesday and Friday: 10 a.m. to 5 p.m.
            - Saturday: 10 a.m. to 2 p.m.
            - Closed Sunday and Monday

            ## Holiday closures in 2026
            Both libraries will be closed on the following days. When a holiday falls on a Monday,
            the Main Library will also open late, at noon, on the Tuesday that follows, to give
            staff time to empty the book drops and return items to the shelves.

            - New Year's Day, January 1
            - Memorial Day, May 25
            - Independence Day, July 4
            - Labor Day, September 7
            - Thanksgiving, November 26, and the day after
            - Christmas Eve from 2 p.m., and Christmas Day

            ## Borrowing when we are closed
            You can renew items, place holds and download e-books and audiobooks at any time from
            the online catalogue. Items due on a day when the library is closed are due on the
            next open day instead, and no late fees are charged for that time. If you have a
            question while we are closed, leave a message at the front desk number and a librarian
            will call you back the next morning.

            ## Accessibility
            Both buildings have step-free entrances. The Main Library has a lift to every floor and
            a quiet room that can be booked for up to two hours. Large-print books and magnifiers
            are available at both locations; ask at the front desk.
            """;

    static final String LENTIL_SOUP =
            """
            # Smoky red lentil soup
            @ Serves 4 | Prep 15 minutes | Cook 35 minutes

            This is the soup I make on Sunday evenings when the fridge is nearly empty and
            everyone wants something warm. Red lentils break down as they cook, so the soup turns
            thick and creamy without any cream. Smoked paprika and a spoon of tomato paste give it
            a deep, slightly sweet flavour, and a squeeze of lemon at the end keeps it bright.

            ## Ingredients
            - 2 tablespoons olive oil
            - 1 large onion, finely chopped
            - 2 carrots, peeled and diced
            - 3 cloves garlic, sliced
            - 1 tablespoon tomato paste
            - 2 teaspoons smoked paprika
            - 1 teaspoon ground cumin
            - 250 g red lentils, rinsed until the water runs clear
            - 1.2 litres vegetable stock
            - 1 bay leaf
            - Juice of half a lemon
            - Salt and black pepper
            - Plain yoghurt and chopped parsley, to serve

            ## Method
            1. Warm the oil in a large pot over medium heat. Add the onion and carrots with a pinch of salt and cook, stirring now and then, for about ten minutes, until the onion is soft and golden at the edges.
            2. Add the garlic, tomato paste, paprika and cumin. Stir for one minute, until the paste darkens and the spices smell toasty. Do not let the garlic burn.
            3. Tip in the lentils, stock and bay leaf. Bring to a boil, then lower the heat and simmer, partly covered, for 20 to 25 minutes. Stir from time to time so the lentils do not stick to the bottom.
            4. When the lentils have collapsed, remove the bay leaf. Blend about half of the soup with a stick blender, or leave it all chunky if you prefer.
            5. Stir in the lemon juice, then season with salt and plenty of pepper. If the soup is too thick, loosen it with a little hot water.
            6. Serve in warm bowls with a spoon of yoghurt and some parsley on top.

            ## Tips and variations
            The soup keeps for four days in the fridge and freezes well for up to three months. It
            thickens as it stands, so add a splash of water when you reheat it. For a richer
            version, stir in a tin of coconut milk instead of some of the stock. If you have no
            smoked paprika, use sweet paprika and a pinch of chilli flakes; the flavour will be
            different but still good.

            Red lentils do not need soaking, but rinsing them removes dust and starch that would
            otherwise make the surface foamy. If foam does form while the soup comes to a boil,
            skim it off with a spoon.
            """;

    static final String RAIN_JACKET =
            """
            # Harbor Shell 2.5L Rain Jacket – Men's
            @ Colour: Slate Blue | Item 40-2217-SB | $149.00

            A light, packable shell for wet commutes, coastal walks and day hikes. The Harbor
            Shell uses a two-and-a-half-layer waterprof membrane with taped seams, so rain stays
            out while sweat vapour can escape. It folds into its own chest pocket and weighs just
            310 grams in size medium.

            ## Features
            - Fully taped seams and a water-repellent finish that sheds light rain
            - Adjustable hood with a laminated brim that keeps its shape in the wind
            - Two-way front zip with a storm flap and chin guard
            - Two hand pockets placed above a hip belt, plus one chest pocket that doubles as a stuff sack
            - Pit zips for ventilation on climbs
            - Elastic cuffs with hook-and-loop tabs
            - Drop hem that covers the seat when you sit on a wet bench

            ## Materials and care
            The face fabric is 100% recycled nylon ripstop. The membrane is PFC-free. Machine wash
            cold on a gentle cycle with a technical wash, and tumble dry on low for twenty minutes
            to renew the water-repellent finish. Do not use fabric softener, and do not dry clean.

            ## Fit
            Regular fit with room for a light fleece underneath. The model is 183 cm tall and
            wears size medium. If you plan to layer a thick insulated jacket beneath the shell,
            choose one size up.

            ## Shipping and returns
            Orders placed before 2 p.m. on a weekday ship the same day. Standard delivery is free
            on orders over $75. You can return unworn items within 60 days for a full refund;
            items that have been worn are covered by our two-year warranty against defects in
            materials and workmanship.

            ## Reviews
            4.6 out of 5 stars, based on 212 reviews.

            "Kept me dry on a four-hour walk in steady rain, and it packs down smaller than my
            water bottle." – Jo, Portland

            "The hood is the best I have had on any jacket. It turns with my head instead of
            blocking my view when I check for traffic on the bike." – Sam, Millbrook
            """;

    static final String SOURDOUGH =
            """
            # Your first sourdough loaf: a weekend schedule
            @ Crumb & Crust baking guides | Difficulty: beginner

            Sourdough has a reputation for being fussy, but most of the work is waiting. This
            guide spreads one loaf over a weekend so that every hands-on step falls at a sensible
            time of day. You will need an active starter, a kitchen scale, a large bowl, and a pot
            with a lid that can go into a hot oven.

            ## Before you start
            Your starter should double in size within four to eight hours of a feeding. If it does
            not, feed it twice a day for a few days at room temperature until it does. A sluggish
            starter is the most common reason for a dense loaf, and no amount of careful shaping
            will make up for it.

            Use bread flour if you can. It has more protein than plain flour, which makes the
            dough stronger and easier to handle. A small amount of whole wheat flour adds flavour
            and helps fermentation along.

            ## Ingredients for one loaf
            - 450 g bread flour
            - 50 g whole wheat flour
            - 350 g water, lukewarm
            - 100 g active starter
            - 10 g fine salt

            ## Friday evening: feed the starter
            Around 9 p.m., feed your starter so it will be at its peak in the morning. Mix 20 g of
            starter with 50 g of flour and 50 g of water, cover it loosely, and leave it on the
            counter overnight.

            ## Saturday morning: mix and rest
            At about 8 a.m., check that the starter is bubbly and domed. Stir the flours and 330 g
            of the water together until no dry flour remains, cover, and leave for one hour. This
            rest, often called the autolyse, lets the flour absorb the water and makes the dough
            smoother.

            Then add the starter, the salt and the remaining 20 g of water. Squeeze the dough
            between your fingers until everything is combined. It will feel sticky and shaggy;
            that is normal.

            ## Saturday: stretch and fold
            Over the next two hours, do four sets of stretch and folds, thirty minutes apart. With
            a wet hand, grab one side of the dough, lift it up and fold it over the rest, then turn
            the bowl a quarter turn and repeat until you have gone all the way round. After the
            last set, leave the dough alone.

            Bulk fermentation is finished when the dough has grown by about half, feels airy, and
            shows bubbles on the sides and surface. In a warm kitchen this can take four hours
            from mixing; in a cool one, seven or more. Watch the dough, not the clock.

            ## Saturday afternoon: shape
            Tip the dough onto an unfloured counter and gently form it into a loose round. Let it
            rest for twenty minutes. Then dust the top with flour, flip it, and shape it into a
            tight ball or oval by folding the edges into the centre and rolling it towards you.
            Place it seam side up in a basket or bowl lined with a well-floured tea towel.

            ## Saturday night: cold proof
            Cover the basket and put it in the fridge overnight, for twelve to sixteen hours. The
            cold slows the yeast, deepens the flavour, and makes the dough much easier to score.

            ## Sunday morning: bake
            Put the pot and its lid into the oven and heat to 250 °C for 45 minutes. Turn the cold
            dough out onto a piece of baking paper, cut a single confident slash along the top
            with a razor or sharp knife, and lower it into the hot pot. Bake with the lid on for 20
            minutes, then remove the lid, reduce the heat to 230 °C, and bake for another 20 to 25
            minutes, until the crust is deep brown.

            Let the loaf cool on a rack for at least an hour before cutting. The inside is still
            cooking as it cools, and slicing too early gives a gummy crumb.
            """;

    static final String TOWN_HISTORY =
            """
            # A short history of Millbrook

            ## Settlement and the first mill
            Millbrook takes its name from the grist mill that Josiah Penhallow built on the Sable
            River in 1768, at the point where the river drops nine feet over a ledge of granite.
            Farmers from the surrounding hills brought their grain to the mill, and a small
            cluster of houses, a smithy and a tavern grew up around it. The first meeting house
            was raised in 1774 on the rise that is now Chapel Street, and the town was
            incorporated in 1791 with 412 residents.

            ## The canal years
            In 1829 a canal company cut a channel around the falls so that flat-bottomed boats
            could carry timber, potash and wool down to the coast. For two decades the canal basin
            was the busiest place in town. Warehouses lined Water Street, and a second mill, this
            one spinning cotton, opened beside the locks. Many of the brick buildings on Water
            Street date from this period, although most of their ground floors have since been
            rebuilt.

            ## Railroad and industry
            The railroad arrived in 1852 and the canal closed within ten years. The Sable Valley
            Line ran through the centre of town, and the depot on Station Square became the new
            heart of Millbrook. Factories followed the tracks: a paper mill, a shoe factory, and
            the Kestrel Hill clock works, which at its peak in 1910 employed more than six hundred
            people and shipped mantel clocks across the country. Workers came from Quebec,
            Ireland, Italy and Poland, and the churches, clubs and bakeries they founded still
            shape the neighbourhoods east of the river.

            ## Flood and recovery
            On the night of November 3, 1927, after days of heavy rain, the Sable River rose
            eleven feet above its normal level. The flood swept away the original Elm Street
            Bridge, destroyed the lower floors of the paper mill, and left much of Water Street
            under mud. Nobody in Millbrook died, which older residents credited to the mill
            workers who went door to door through the night. The town rebuilt quickly, and the
            steel bridge that still carries Elm Street across the river opened in 1930.

            ## The twentieth century and after
            Manufacturing declined after the Second World War. The shoe factory closed in 1958 and
            the clock works in 1971, and for a time many storefronts on Water Street stood empty.
            The turnaround began in the 1980s, when the old clock works became the Kestrel Hill
            Museum and the former canal path was cleared as a walking trail. Today Millbrook has
            about 14,000 residents. Its largest employers are the regional hospital, the school
            district and a cluster of small engineering firms, several of which occupy restored
            mill buildings.

            ## Learn more
            The Millbrook Historical Society keeps photographs, maps and town records in the
            reading room of the Main Library and offers guided walks of Water Street on the first
            Saturday of each month from May to October. The society welcomes donations of family
            papers and photographs related to the town.
            """;

    static final String TRAIL =
            """
            # Cedar Ridge Loop
            @ Distance 7.4 miles | Elevation gain 1,350 feet | Difficulty: moderate | Dogs on leash

            The Cedar Ridge Loop climbs through mixed hardwood forest to a long granite ridge with
            views over the Sable River valley, then returns along Brandt Brook past a series of
            small waterfalls. It is one of the most popular hikes in the upper valley, and the
            parking area fills early on autumn weekends.

            ## Getting there
            From Millbrook, follow Route 9 north for 6 miles and turn left onto Ridge Farm Road.
            The trailhead parking lot is on the right after 1.2 miles, just past the red barn.
            There is room for about twenty cars. Parking along the road is not allowed and cars
            will be towed. There are no toilets at the trailhead.

            ## The route
            From the kiosk, follow the blue blazes across a wooden footbridge and up a set of
            stone steps. After half a mile, the trail splits; keep right to hike the loop
            counterclockwise, which puts the steepest section on the way up rather than the way
            down.

            The climb to the ridge is steady for about two miles, with a few short scrambles over
            exposed roots. At the top, the trail follows open ledges for nearly a mile. The best
            viewpoint, known locally as the Pulpit, is a flat outcrop with a view west to the
            Cobalt Hills. It is a good place for lunch, but keep well back from the edge, which is
            higher than it looks.

            The descent leaves the ridge at a cairn and drops steeply to Brandt Brook. The last
            two miles follow the brook downstream on an old logging road, crossing it twice on
            stepping stones. In spring, or after heavy rain, these crossings can be knee-deep;
            hikers can avoid them by taking the yellow-blazed bypass, which adds half a mile.

            ## Seasonal notes
            The ledges are icy from late November until April, and microspikes are recommended.
            Black flies are heavy in late May and June. In October the ridge is a favourite spot
            for watching migrating hawks.

            ## Current conditions
            The footbridge over Brandt Brook near the end of the loop is closed for repairs until
            May 15, 2026. Use the yellow-blazed bypass until then. Report fallen trees or damaged
            trail markers to the association by email with a photo and a description of the
            location.

            ## Leave no trace
            Carry out everything you carry in, stay on the marked trail to protect the thin soil
            on the ridge, and keep dogs on a leash. Camping and fires are not permitted anywhere on
            the loop.
            """;

    static final String RELEASE =
            """
            # Lattice DB 3.4.0 released
            @ Release notes | February 24, 2026

            Lattice DB 3.4.0 is now available. This release adds incremental backups, makes range
            scans on compressed tables up to 40 percent faster, and fixes a rare crash during
            compaction. It is a drop-in upgrade from any 3.x release; the on-disk format has not
            changed.

            ## New features
            - Incremental backups. The new `lattice backup --incremental` command copies only the files that changed since the previous backup. On our test cluster a nightly backup of a 2 TB database shrank from 50 minutes to under 6.
            - Per-table compression settings. Tables can now choose between LZ4, Zstandard and no compression, and the choice can be changed online with ALTER TABLE.
            - A new metric, `lattice_compaction_debt_bytes`, reports how much data is waiting to be compacted, which makes it easier to spot write stalls before they happen.
            - The command line shell remembers history between sessions and supports tab completion for table and column names.

            ## Performance
            Range scans over Zstandard-compressed tables now decompress blocks in parallel when the
            scan is large enough to benefit. Point lookups are unchanged. Write throughput improved
            by about 8 percent in our benchmarks thanks to a smaller lock around the write-ahead
            log.

            ## Bug fixes
            - Fixed a crash when a compaction and a table drop ran at the same time (issue 2291).
            - Fixed wrong results from range scans that started exactly at the last key of a block (issue 2307).
            - The server no longer logs a warning on every start when the data directory is on a read-only snapshot.
            - Fixed a memory leak in the replication client after a network timeout.

            ## Upgrading
            Stop one node at a time, replace the binary, and start it again; mixed 3.3 and 3.4
            clusters are supported during a rolling upgrade. Downgrading back to 3.3 is possible
            as long as no table has been switched to the new compression settings.

            ## Thanks
            This release includes contributions from 23 people, nine of them first-time
            contributors. Thank you to everyone who reported bugs, reviewed pull requests and
            tested the release candidates.
            """;

    static final String EXHIBIT =
            """
            # Clockwork and Current: 200 years of keeping time
            @ Special exhibition | West Gallery | March 7 to September 27, 2026

            For most of history, knowing the time meant looking at the sky. Clockwork and Current
            follows the two centuries in which that changed, from the church clock that set the
            pace of a whole town to the quartz watch on every wrist and the atomic signals that now
            keep phones and power grids in step. The exhibition brings together more than 140
            objects, many of them made a few hundred yards from the museum in the workshops of the
            Kestrel Hill clock works.

            ## What you will see
            The first room recreates the clock works' finishing floor around 1905, with
            workbenches, lathes and a line of mantel clocks waiting for their final regulation.
            Visitors can wind a restored movement and watch the escapement release the gear train
            one tooth at a time. A wall of factory records shows how a single clock passed through
            forty pairs of hands before it left the building.

            The second room is devoted to railway time. Before the railroads, each town kept its
            own local time, set by the sun, and Millbrook ran nearly four minutes behind the coast.
            A large map traces how telegraph time signals and, in 1883, standard time zones
            replaced that patchwork. Highlights include a station master's regulator clock and a
            pocket watch that a conductor on the Sable Valley Line carried for thirty-one years.

            The final room moves from gears to electronics: a quartz crystal oscillator from 1932,
            the first digital wristwatches, and a working radio receiver that picks up the national
            time signal. A short film explains how an atomic clock works and why the satellites
            that tell your phone where it is need to correct their clocks for the effects of
            relativity.

            ## For families
            A trail of hands-on stations runs through the exhibition. Children can build a simple
            pendulum and time its swing, try to guess the length of a minute without looking, and
            stamp their own time card at a replica factory clock. An activity booklet is available
            free at the entrance.

            ## Accessibility
            All three rooms are step-free, and seating is available in each. Large-print labels and
            an audio guide, which also includes a described tour for blind and partially sighted
            visitors, can be borrowed at the front desk. The film is captioned.

            ## Related events
            Curator's talks take place on the first Thursday of each month at 6 p.m. On Saturday,
            April 18, the museum's conservators will demonstrate how they clean and repair a
            tall-case clock, and visitors are welcome to bring a small clock for an informal
            assessment. Spaces are limited and must be booked in advance; the museum has already
            received more requests than it can accept for the April session.
            """;

    static final String WEATHER =
            """
            # Winter storm advisory for the upper valley
            @ Issued 4:10 a.m. Thursday, March 5, 2026, by the Upper Valley Weather Desk

            A winter storm advisory is in effect from 6 p.m. Thursday until 10 a.m. Friday for
            Millbrook, Ridge Farm, the Sable River valley and the higher terrain of the Cobalt
            Hills.

            ## What to expect
            Snow will develop from southwest to northeast between 5 and 8 p.m. Thursday and become
            heavy at times overnight. Total accumulations of 4 to 7 inches are expected in the
            valley, with 6 to 10 inches above 1,500 feet. Snowfall rates may reach one inch per
            hour between midnight and 4 a.m. Winds will gust to 30 miles per hour on exposed
            ridges, causing blowing and drifting snow.

            ## Impacts
            Roads will become snow covered and slippery, and the Friday morning commute is likely
            to be difficult. Visibility may drop below a quarter of a mile in heavy snow. Scattered
            power outages are possible where wet snow weighs on tree branches and lines,
            especially in the hills.

            ## Precautions
            - If you must travel, keep an extra flashlight, food and water in your vehicle.
            - Allow extra time and leave more distance between you and the car ahead.
            - Clear snow from the outside vents of furnaces and dryers to avoid a build-up of carbon monoxide.
            - Check on elderly neighbours and anyone who relies on electric medical equipment.
            - Never run a generator indoors or in an attached garage.

            The town of Millbrook has declared a parking ban on all town roads from 8 p.m.
            Thursday until 2 p.m. Friday so that plows can clear the streets from curb to curb.
            Vehicles left on the street may be towed.

            The next update will be issued by 4 p.m. Thursday, or sooner if conditions change.
            """;

    static final String GARDEN =
            """
            # Pike Street community garden doubles its plots
            @ By Marcus Oyelaran, Millbrook Courier staff | March 3, 2026

            The community garden on Pike Street will have 48 plots this season, up from 24, after
            the town agreed to lease the neighbouring lot that has stood empty since the
            laundromat closed in 2019. Volunteers plan to clear the lot in April and have the new
            beds ready for planting by the middle of May.

            The garden has had a waiting list almost since it opened in 2017. Coordinator Elena
            Park said that at the end of last season 61 households were waiting for a plot, some
            of them for three years. "People ask us every week," she said. "A lot of them live in
            apartments on the east side and have no yard at all."

            The expansion is paid for by a $22,000 grant from the county health department, which
            funds projects that make fresh vegetables easier to get in neighbourhoods without a
            full grocery store. The money will cover raised beds, a second water line, a tool shed
            and a gravel path wide enough for wheelchairs. Six of the new beds will be built at
            table height for gardeners who cannot kneel.

            Plots cost $30 for the season, and the fee is waived for anyone who asks. Gardeners
            agree to keep their plot weeded, to share in the upkeep of the paths and compost bins,
            and to grow no more than two squash plants, a rule that Park admits was written after
            "the zucchini summer of 2021".

            The garden will hold a work day on Saturday, April 11, from 9 a.m. to 1 p.m., to clear
            the new lot. Gloves, tools and lunch will be provided. Households on the waiting list
            will be offered plots in the order they signed up, and new applications can be made on
            the garden's website or at the Eastside library branch.
            """;

    static final String BIKE_FLAT =
            """
            # How to fix a flat tyre at the roadside
            @ Millbrook Wheelers ride guides

            Sooner or later every rider gets a puncture far from home. With a few basic tools and
            ten minutes, you can be back on the road. Practise once at home, on a dry evening, and
            the real thing will feel much less stressful.

            ## What to carry
            - A spare inner tube of the right size and valve type
            - Two plastic tyre levers
            - A mini pump or a CO2 inflator with a spare cartridge
            - A small patch kit, for when you get a second puncture
            - A folded piece of an old tyre or a banknote, to boot a cut in the tyre

            ## Remove the wheel
            Shift into the smallest rear cog before you stop, which makes the rear wheel easier to
            take out and put back. Open the brake quick release if your bike has rim brakes, then
            open the axle lever or unscrew the thru-axle and lift the bike off the wheel. Lay the
            bike on its left side so the gears face up.

            ## Find the cause
            Before you take anything apart, spin the wheel slowly and look at the tread for glass,
            thorns or a cut. Once the tube is out, run your fingers carefully around the inside of
            the tyre to find anything still stuck in it. If you skip this step, the new tube will
            be punctured by the same sliver of glass within a mile.

            ## Change the tube
            Let out any remaining air, then push both beads of the tyre into the centre of the rim
            all the way round. This gives you slack to work with. Hook one lever under the bead
            opposite the valve, lever it over the rim, and clip the lever to a spoke. Use the
            second lever a few inches away and slide it around the rim until one side of the tyre
            is off. Pull out the old tube.

            Put a little air into the new tube so it holds its shape, push the valve through the
            hole in the rim, and tuck the tube inside the tyre. Starting at the valve, work the
            bead back onto the rim with your thumbs. The last section is the hardest; push the
            bead already fitted into the centre of the rim to gain a few millimetres. Avoid using
            levers to fit the tyre, as they can pinch the new tube.

            ## Inflate and check
            Pump to around half pressure, then check that the tube is not caught under the bead
            anywhere and that the line moulded on the tyre sits evenly above the rim on both
            sides. Then pump to full pressure, refit the wheel, close the brake, and spin it to
            make sure nothing rubs.

            Once you are home, patch the old tube so it can become your next spare.
            """;

    static final String COUNCIL =
            """
            # Council meeting summary: February 26, 2026
            @ Prepared by the Town Clerk's office

            The Millbrook Town Council met on Thursday, February 26, with all seven members
            present. This summary is prepared for residents; the official minutes will be posted
            after the council approves them at its next meeting.

            ## Budget
            The council gave first reading to the budget for the fiscal year beginning July 1.
            Proposed spending is $41.6 million, an increase of 3.1 percent, most of it driven by
            health insurance costs and a new contract for snow removal. The budget holds the tax
            rate flat by drawing $600,000 from reserves. A public hearing will be held on March 19.

            ## Elm Street Bridge
            The council voted 6 to 1 to award the contract for repairs to the Elm Street Bridge to
            the lowest bidder. Councillor Petra Vance, who voted against, said she supported the
            repair but wanted the town to require night work to shorten the closure.

            ## Short-term rentals
            After an hour of public comment, the council sent a proposed ordinance on short-term
            rentals back to the planning board. Several residents asked for a cap on the number of
            rental permits in the downtown district; others said the rules would hurt families who
            rent out a room to cover their mortgage. The planning board is expected to return a
            revised draft in May.

            ## Other business
            - Approved a three-year lease of the lot at 118 Pike Street for the community garden.
            - Accepted a donation of two benches for the canal path from the Rotary Club.
            - Appointed Luis Ferreira to the conservation commission.
            - Scheduled a workshop on the library's capital plan for March 12.

            The next regular meeting is on Thursday, March 12, at 7 p.m. in the council chambers.
            Meetings are broadcast live on the local access channel, and recordings are posted
            online within two days.
            """;

    static final String CONCERT =
            """
            # Review: Millbrook Youth Orchestra finds its voice in winter concert
            @ By Ilse Marchetti, for the Millbrook Courier | March 1, 2026

            There is a moment in every good student concert when the players stop watching the
            conductor nervously and start listening to each other. For the Millbrook Youth
            Orchestra on Saturday night, it came about ten minutes into Dvořák's Eighth Symphony,
            in a passage where the flutes pass a bird-like phrase to the clarinets and back again.
            The hall went quiet in a different way, and from then on the evening belonged to the
            players.

            The orchestra, which draws about seventy musicians aged twelve to nineteen from schools
            across the upper valley, opened with a bright, slightly rushed account of Rossini's
            overture to The Barber of Seville. The strings were tidy, and the famous crescendos
            built with real excitement, even if the brass arrived a beat early at the first climax.

            The centrepiece was the premiere of Riverlines, a short piece by Millbrook High School
            senior Tomás Quill, written for the orchestra's tenth anniversary. It begins with low
            strings imitating the slow pull of the Sable River and gradually adds layers of
            percussion that suggest the old mills along its banks. At eight minutes it is
            ambitious without being overlong, and the young composer looked both delighted and
            terrified as he took his bow.

            After the interval came the Dvořák. Conductor Hannah Loewe took the first movement at a
            flowing pace and gave the cello section room to sing. The slow movement was the high
            point of the night, with a beautifully shaped violin solo from concertmaster June
            Achebe. The finale's trumpet fanfare rang out cleanly, and the variations that follow
            had plenty of swagger.

            The orchestra's spring concert, featuring the winners of its concerto competition, is
            on May 16 at the high school auditorium. Tickets are $10, and students get in free.
            """;

    static final String CLI_TUTORIAL =
            """
            # Getting started with the Lattice command line
            @ Documentation | Lattice DB 3.x

            The `lattice` command line tool lets you start a local server, open an interactive
            shell, load data and run queries without writing any code. This tutorial takes about
            fifteen minutes and assumes you have installed Lattice DB 3.4 or later.

            ## Start a local server
            Create an empty directory for your data and start a single-node server in it:

            | lattice server start --data ./lattice-data --port 7400

            The server prints a line when it is ready to accept connections. Leave it running in
            its own terminal window. To stop it later, press Ctrl+C or run `lattice server stop`
            from another window.

            ## Open the shell
            In a second terminal, connect to the server:

            | lattice shell --port 7400

            You will see the `lattice>` prompt. Type `help` to list the commands, and press Tab to
            complete table and column names. Commands end with a semicolon, and queries can span
            several lines.

            ## Create a table and load data
            Create a table for a small set of weather readings:

            | CREATE TABLE readings (
            |   station  TEXT,
            |   taken_at TIMESTAMP,
            |   temp_c   REAL,
            |   PRIMARY KEY (station, taken_at));

            Download the example file `readings.csv` from the documentation site, then load it
            from the shell:

            | \\load readings FROM 'readings.csv' WITH HEADER;

            The shell reports how many rows were loaded and how long it took. The example file has
            52,560 rows, one reading every ten minutes for a year from a single station.

            ## Run queries
            Find the warmest reading of the year:

            | SELECT taken_at, temp_c FROM readings ORDER BY temp_c DESC LIMIT 1;

            Because the primary key starts with the station, range queries over time for one
            station are fast:

            | SELECT avg(temp_c) FROM readings
            |  WHERE station = 'MLB-01'
            |    AND taken_at >= '2025-07-01' AND taken_at < '2025-08-01';

            Put `EXPLAIN` in front of any query to see whether it uses a range scan or reads the
            whole table.

            ## Export results
            Any query result can be written to a file. In the shell, run:

            | \\export 'july.csv' SELECT * FROM readings WHERE taken_at >= '2025-07-01';

            Supported formats are CSV, JSON Lines and Parquet; the format is chosen from the file
            extension.

            ## Next steps
            Read the guide to data modelling to learn how to choose a primary key, and the
            operations guide before running Lattice in production. If you get stuck, ask on the
            community forum, where the maintainers answer most questions within a day.
            """;

    static final String HAWK_WATCH =
            """
            # Autumn hawk watch 2025: final count
            @ Upper Valley Raptor Watch | Season report

            Our volunteers counted 18,427 migrating raptors from the Pulpit lookout on Cedar Ridge
            between September 1 and November 15, the third-highest total in the watch's 22-year
            history. Counters were on the ridge for 514 hours on 71 days; rain or low cloud kept
            us off the ledges on the other five.

            ## Highlights
            Broad-winged hawks once again made up most of the count, with 14,902 birds. As usual,
            almost all of them passed in a two-week window in mid-September, and a single
            afternoon, September 17, produced 6,113 as kettles of hundreds of birds rose on
            thermals over the valley and streamed south along the ridge.

            Sharp-shinned hawks had a strong season with 1,284, well above the ten-year average.
            Bald eagles continued their steady rise, with 212 counted, a record for the site. We
            recorded 9 golden eagles, all in late October and November, and one rough-legged hawk
            on November 12.

            Not everything was good news. American kestrels were again scarce, with only 187, less
            than half the number we counted in the watch's early years. The decline matches what
            hawk watches across the region are reporting, and researchers suspect a mix of habitat
            loss and changes in the insects the falcons eat.

            ## Season totals for selected species
            - Broad-winged hawk: 14,902
            - Sharp-shinned hawk: 1,284
            - Red-tailed hawk: 604
            - Turkey vulture: 498
            - Bald eagle: 212
            - American kestrel: 187
            - Osprey: 171
            - Cooper's hawk: 143
            - Golden eagle: 9

            ## Thank you
            The watch runs entirely on volunteers. Thanks to the 46 people who took a shift this
            year, to the Cedar Ridge landowners who allow access to the lookout, and to the trails
            association for keeping the path in good repair. New counters are always welcome; we
            offer a training day in late August for anyone who can tell a hawk from a crow.
            """;

    static final String MARKET =
            """
            # What's at the market this Saturday
            @ Millbrook Saturday Market | Week of March 14, 2026

            The market moves back outdoors this week after three months in the old depot, and the
            tables are starting to fill again. It is still early in the year, so most of what you
            will find has been stored since autumn or grown under cover, but the first greens are
            here and the sugarhouses have been busy. Here is what to look for, and a few ideas for
            what to do with it.

            ## Vegetables
            Hollis Farm has spinach and baby kale from its unheated tunnels, sweeter than anything
            you can buy in winter because the plants make sugar to protect themselves from the
            cold. Beech Hill still has potatoes, carrots, parsnips and beets from the root cellar,
            and the parsnips are at their best after a winter in storage. Look for the first
            pea shoots and microgreens at the Two Creeks table.

            ## Fruit and syrup
            Orchard Row has apples from cold storage, crisp enough for eating and very good for
            baking, and fresh-pressed cider. Maple season is in full swing: the Lindqvist family
            started boiling on March 2, and this week they will have the first bottles of this
            year's golden syrup, which has the most delicate flavour of the season.

            ## From the kitchen
            - Roast parsnips and carrots with a spoon of maple syrup and a pinch of chilli.
            - Wilt spinach into a pan of fried potatoes just before serving.
            - Slice apples thinly into a salad of baby kale with toasted walnuts and a sharp dressing.

            ## Also at the market
            The Millbrook Wheelers will run a free bike check at the north entrance from 9 a.m. to
            noon, to get bikes ready for spring. The library's mobile branch will be parked by the
            fountain with books on gardening and cooking. Live music this week comes from the Sable
            River String Band.

            ## Market information
            The market is open every Saturday from 8 a.m. to 1 p.m. in the Station Square parking
            lot from March through October. Most vendors accept cards, and SNAP benefits can be
            used at the information tent, where they are matched dollar for dollar up to $20 for
            fresh fruit and vegetables. Dogs are welcome on a short leash. Please bring your own
            bags.
            """;

    static final String CAFE =
            """
            # About Tern Coffee

            Tern Coffee started in 2019 as a cart on Station Square on market days, run by two
            friends who were tired of driving twenty minutes for a good espresso. Today we have a
            small café on Water Street, in the ground floor of the old canal warehouse, and we
            roast all our coffee ourselves in a back room that smells wonderful every Tuesday and
            Friday.

            ## Our coffee
            We buy green coffee from three importers who can tell us which farm or cooperative
            each lot came from and what the farmers were paid. We roast in small batches of twelve
            kilograms, lightly enough to taste where a coffee comes from but not so lightly that it
            tastes sour in milk. Our house espresso, Low Tide, is a blend of a Brazilian and a
            Colombian coffee with notes of cocoa and stewed plum.

            ## Food
            Pastries come every morning from Crumb & Crust on Chapel Street, and our soups are made
            in the café kitchen. We always have vegan and gluten-free options; ask at the counter
            if you have an allergy and we will tell you exactly what is in each item.

            ## Visit us
            - 27 Water Street, Millbrook
            - Monday to Friday 7 a.m. to 4 p.m., Saturday and Sunday 8 a.m. to 3 p.m.
            - Step-free entrance and an accessible toilet
            - Dogs welcome on the patio

            ## Beans to take home
            We also sell whole beans in the café and online, ground to order for any brewing
            method. Local orders over $30 are delivered by bike on Wednesdays, and a subscription
            brings a fresh bag to your door every two or four weeks.
            """;

    static final String APARTMENT =
            """
            # Two-bedroom apartment at 88 Chapel Street, Unit 3
            @ $1,650 per month | Available April 1, 2026

            A bright two-bedroom apartment on the third floor of a restored 1890s brick building,
            two minutes' walk from the Main Library and Station Square. The unit was renovated in
            2024 with new windows, a new kitchen and refinished hardwood floors throughout.

            ## The apartment
            - 2 bedrooms, 1 bathroom, about 900 square feet
            - Open kitchen with a gas range, dishwasher and plenty of counter space
            - Living room with two tall windows facing south over Chapel Street
            - Shared laundry in the basement, plus a private storage cage
            - Heat and hot water included; tenant pays electricity and internet

            ## The building
            There are six units, an intercom at the front door, and a bike room at the back. The
            building has no elevator. Off-street parking is available for $75 per month on a
            first-come basis, and there is free overnight street parking outside snow emergencies.
            The landlord lives nearby and handles repairs directly, usually within a day.

            ## The neighbourhood
            Chapel Street is quiet at night but close to everything. The Saturday market, three
            cafés and the Main Library are within a five-minute walk, the canal path starts at the
            end of the street, and the bus to the regional hospital stops at the corner.

            ## Terms
            Twelve-month lease. First month's rent and a security deposit of one month are due at
            signing. Cats are allowed with a $25 monthly fee; sorry, no dogs. No smoking anywhere
            on the property. To arrange a viewing, use the contact form on this page and include
            the days and times that suit you.
            """;

    static final String SCIENCE_FAIR =
            """
            # Science fair 2026: call for projects
            @ Millbrook High School | Posted February 27, 2026

            The annual Millbrook High School Science Fair returns on Friday, April 24, in the gym,
            and this year it is open to students in grades 6 through 12 from every school in the
            district. Projects can be entered individually or by teams of up to three students.

            ## Categories
            - Life sciences, including biology, ecology and health
            - Physical sciences, including chemistry, physics and astronomy
            - Engineering and technology, including robotics and software
            - Earth and environment, including weather, water and soil
            - Mathematics and data

            ## How to enter
            Fill in the registration form by March 27. Each entry needs a short description of the
            question the project will try to answer, and the name of a teacher or adult mentor who
            has agreed to help. Projects involving people, animals or hazardous materials need
            approval from the fair committee before any experiments begin, so register early if
            your idea falls into one of those groups.

            ## On the day
            Set-up runs from 7:30 to 9 a.m. Judges will visit each display between 9 a.m. and noon
            and will ask every student to explain their work in their own words. The fair opens to
            families and the public from 1 to 4 p.m., and awards are presented at 4:15.

            ## Prizes and support
            Winners in each category receive a $200 prize, and the top three projects overall go
            on to the regional fair in May. The Kestrel Hill Museum will again give a special award
            for the best project on the history of science or technology. Students who need
            materials can apply to the fair's small grants fund, which covers up to $50 per
            project; no student should stay away because of cost.
            """;

    // Short pages and digest-only pieces.

    static final String LIBRARY_CONTACT =
            """
            # Contact us and find us
            @ Millbrook Public Library

            ## Main Library
            14 Chapel Street, Millbrook. The entrance is on the Chapel Street side; the car park
            behind the building is free for two hours.

            ## Eastside Branch
            302 Harlow Avenue, next to the community centre. Buses on route 7 stop outside.

            ## Get in touch
            Ask a question at the front desk, leave us a message through the online form, or write
            to the library director. We aim to reply within two working days.
            """;

    static final String SHOP_SHIPPING =
            """
            # Shipping and returns
            @ Help centre

            ## Delivery
            Orders placed before 2 p.m. on a weekday ship the same day from our warehouse.
            Standard delivery takes three to five working days and is free on orders over $75.
            Express delivery is available at checkout.

            ## Returns
            Unworn items can be returned within 60 days for a full refund. Use the prepaid label in
            your parcel, or bring the item to any of our stores.
            """;

    static final String MUSEUM_MEMBERS_EVENING =
            """
            # Members' evening in the conservation lab
            @ Thursday, March 26, 6 to 8 p.m.

            Members are invited behind the scenes to see how our conservators care for the
            collection. Watch the team clean a painted clock dial under the microscope, learn why
            some objects are kept in the dark, and ask questions about objects you have at home.
            Light refreshments will be served. The evening is free for members, and each member
            may bring one guest.
            """;

    static final String MUSEUM_LEDGER =
            """
            # New on loan: the Penhallow mill ledger

            A ledger kept at the Penhallow grist mill between 1771 and 1779 is on display in the
            lobby until June, on loan from the Millbrook Historical Society. Its pages record who
            brought grain to the mill, how much, and what they paid, often in butter, firewood or
            days of labour rather than coins. A digital copy can be browsed at the touch screen
            beside the case.
            """;

    static final String LATTICE_COMMUNITY_CALL =
            """
            # Community call recap

            Thirty-four people joined February's community call. The maintainers demonstrated the
            new incremental backups, answered questions about running Lattice on small ARM boards,
            and asked for feedback on a proposal to add a built-in web console. The recording and
            the slides are on the community forum. The next call is on the last Wednesday of
            March at 17:00 UTC, and anyone is welcome to suggest a topic.
            """;
}
