package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.io.Json;
import dev.neardup.testing.ShortTempDirs;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * The HTML reports of {@code evaluate}, {@code dedupe} and {@code run} on the sample crawl, opened
 * in a real headless Chromium (the system's {@code chromium} through its {@code chromedriver}):
 * they render without console errors (a blocked load or a Content-Security-Policy violation is
 * one), the plots and the side-by-side pair views are there, and two added pages whose text holds
 * {@code <script>} and {@code onerror=} markup show it as text, run nothing and make no element.
 *
 * <p>Without Chromium the test is skipped with how to install it, unless {@code
 * NEARDUP_BROWSER_TESTS=required} (set by {@code .ci/run}), when it fails.
 */
class HtmlReportITCase {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    /** The text of the added pages: markup that would run script if it landed in the report. */
    private static final String EVIL = "<script>alert(1)</script> and <img src=x onerror=alert(2)>";

    private static Path dir;
    private static ChromeDriver browser;

    @BeforeAll
    static void reports() throws Exception {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        String mode = System.getenv().getOrDefault("NEARDUP_BROWSER_TESTS", "");
        if (!present) {
            String install =
                    "needs Chromium: sudo apt-get install chromium chromium-driver (Debian,"
                            + " Ubuntu), for /usr/bin/chromium and /usr/bin/chromedriver";
            assertThat(mode)
                    .as("NEARDUP_BROWSER_TESTS=required but the browser is missing: " + install)
                    .isNotEqualTo("required");
            Assumptions.abort("the HTML report test " + install);
        }
        dir = ShortTempDirs.create("nd-report");
        Path input = dir.resolve("crawl.jsonl");
        try (InputStream sample = Neardup.class.getResourceAsStream("/sample/crawl.jsonl")) {
            Files.write(input, sample.readAllBytes());
        }
        Files.writeString(
                input,
                line(
                                "evil/plain",
                                "https://evil.example/\"><script>alert(3)</script>",
                                "text/plain",
                                words(EVIL, 0))
                        + line(
                                "evil/html",
                                "https://evil.example/copy",
                                "text/html",
                                "<html><body><p>"
                                        + words(
                                                        EVIL.replace("&", "&amp;")
                                                                .replace("<", "&lt;")
                                                                .replace(">", "&gt;"),
                                                        1)
                                                .replace("\n", "</p><p>")
                                        + "</p></body></html>"),
                java.nio.file.StandardOpenOption.APPEND);
        run("evaluate", "--input", input.toString(), "--report", file("evaluate"));
        run(
                "dedupe",
                "--input",
                input.toString(),
                "--clusters",
                dir.resolve("clusters.jsonl").toString(),
                "--report",
                file("dedupe"),
                "-q");
        run(
                "run",
                "--input",
                input.toString(),
                "--alerts",
                dir.resolve("alerts.jsonl").toString(),
                "--report",
                file("run"),
                "-q");

        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1280,1600",
                "--user-data-dir=" + Files.createTempDirectory(dir, "chromium"));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service =
                new ChromeDriverService.Builder()
                        .usingDriverExecutable(CHROMEDRIVER.toFile())
                        .usingAnyFreePort()
                        .build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
    }

    @AfterAll
    static void close() {
        if (browser != null) {
            browser.quit();
        }
    }

    /** A page of 120 words of prose with {@code evil} in the middle; {@code variant} edits two. */
    private static String words(String evil, int variant) {
        List<String> w = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            w.add(i == 57 && variant == 1 ? "changed" : "word" + (i * 7919 % 1000));
            if (i == 60) {
                w.add("\n" + evil + "\n");
            }
        }
        return String.join(" ", w);
    }

    private static String line(String id, String url, String type, String content) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", id);
        doc.put("url", url);
        doc.put("contentType", type);
        doc.put("fetchedAt", "2026-03-04T10:00:00Z");
        doc.put("content", content);
        return Json.write(doc) + "\n";
    }

    private static String file(String command) {
        return dir.resolve(command + ".html").toString();
    }

    private static void run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--report-samples", "100"));
        CliRun run = CliRun.run(all.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Path.of(all.get(all.indexOf("--report") + 1))).isNotEmptyFile();
    }

    @ParameterizedTest
    @ValueSource(strings = {"evaluate", "dedupe", "run"})
    void rendersThePairsAndPlotsAndShowsPageMarkupAsText(String command) throws Exception {
        browser.get(new File(file(command)).toURI().toString());
        assertThatThrownBy(() -> browser.switchTo().alert())
                .as("an alert opened")
                .isInstanceOf(NoAlertPresentException.class);
        List<LogEntry> errors =
                browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                        .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue())
                        .toList();
        assertThat(errors).as("console errors and warnings").isEmpty();

        assertThat(browser.getTitle()).startsWith("neardup " + command);
        // The plots: inline SVG images that the browser decoded.
        List<WebElement> plots = browser.findElements(By.cssSelector("figure img"));
        assertThat(plots).hasSizeGreaterThanOrEqualTo(command.equals("evaluate") ? 2 : 2);
        for (WebElement img : plots) {
            Object width =
                    ((JavascriptExecutor) browser)
                            .executeScript("return arguments[0].naturalWidth", img);
            assertThat(((Number) width).intValue()).as("decoded width of a plot").isPositive();
            assertThat(img.getDomAttribute("src")).startsWith("data:image/svg+xml;base64,");
        }
        // The pair views: two pages side by side, with the differences marked.
        List<WebElement> pairs = browser.findElements(By.cssSelector(".pair"));
        assertThat(pairs).isNotEmpty();
        for (WebElement pair : pairs) {
            assertThat(pair.findElements(By.cssSelector(".sides > .page"))).hasSize(2);
        }
        assertThat(browser.findElements(By.cssSelector(".page del, .page ins"))).isNotEmpty();
        if (command.equals("dedupe") || command.equals("run")) {
            assertThat(browser.findElements(By.cssSelector("#clusters h3"))).isNotEmpty();
        }

        // The added pages: their markup is text on the page, and made no element.
        String evilTexts =
                browser.findElements(By.cssSelector(".page")).stream()
                        .filter(p -> p.getText().contains("evil/"))
                        .map(WebElement::getText)
                        .collect(Collectors.joining("\n"));
        assertThat(evilTexts)
                .contains("<script>alert(1)</script>")
                .contains("<img src=x onerror=alert(2)>")
                .contains("https://evil.example/\"><script>alert(3)</script>");
        assertThat(browser.findElements(By.tagName("script"))).isEmpty();
        assertThat(browser.findElements(By.cssSelector("[onerror]"))).isEmpty();
        assertThat(browser.findElements(By.tagName("img"))).hasSameSizeAs(plots);
        assertThat(Files.readString(Path.of(file(command)), StandardCharsets.UTF_8))
                .doesNotContain("<script")
                .contains("&lt;script&gt;alert(1)&lt;/script&gt;");
    }

    /**
     * The URL rules of the run and dedupe reports: every rule of the sample has one pair, so the
     * print views are candidates below the support bound; the added pages' URL, markup and all, is
     * a candidate too, shown as text.
     */
    @ParameterizedTest
    @ValueSource(strings = {"run", "dedupe"})
    void theReportListsTheUrlRulesAndTheHostsDuplicates(String command) {
        browser.get(new File(file(command)).toURI().toString());
        List<String> headings =
                browser.findElements(By.cssSelector("section h2")).stream()
                        .map(WebElement::getText)
                        .toList();
        assertThat(headings)
                .contains("URL rules", "Candidate rules not kept", "Duplicates per host");
        String candidates = browser.findElement(By.id("table-1")).getText();
        assertThat(candidates)
                .contains("kitchen.example.com replace '/print' -> ''")
                .contains("https://kitchen.example.com/recipes/smoky-red-lentil-soup/print")
                .contains("evil.example");
        String hosts = browser.findElement(By.id("table-2")).getText();
        if (command.equals("run")) {
            // In dedupe the bridge story's print view pairs with the story's re-crawl only (0.80).
            assertThat(candidates)
                    .contains("news.example.org replace '/print/' -> '/'")
                    .contains("https://news.example.org/print/2026/03/elm-street-bridge-repairs");
            assertThat(hosts).contains("lattice.example.com 8 4 50.0%");
        } else {
            assertThat(hosts).contains("lattice.example.com");
        }
        assertThat(browser.findElements(By.tagName("script"))).isEmpty();
    }
}
