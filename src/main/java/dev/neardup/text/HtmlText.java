package dev.neardup.text;

import org.jsoup.Jsoup;
import org.jsoup.nodes.CDataNode;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/**
 * Extracts the visible text of an HTML page, as the pre-processing of seed 003 asks ("strip HTML,
 * JavaScript, comments"), using the jsoup HTML5 parser.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>{@code script}, {@code style}, {@code noscript}, {@code template}, {@code svg}, {@code
 *       math}, {@code iframe}, {@code object}, {@code head} content other than {@code title}, and
 *       comments (including {@code <![CDATA[...]]>} sections, which HTML5 reads as comments outside
 *       svg and math) are dropped;
 *   <li>character references ({@code &amp;amp;}, {@code &amp;eacute;}, {@code &amp;#233;}) are
 *       decoded;
 *   <li>block-level elements and {@code <br>} separate words: {@code <p>a</p><p>b</p>} gives {@code
 *       "a b"}, while inline elements do not: {@code <b>a</b>b} gives {@code "ab"};
 *   <li>the {@code title} is kept (mirrors of a page usually keep it too) and attribute values
 *       (including {@code alt}) are not.
 * </ul>
 *
 * White space is not normalised here beyond what separates blocks; {@link Tokenizer} does that.
 * Thread-safe: the class has no state.
 */
public final class HtmlText {

    private HtmlText() {}

    /** The visible text of {@code html}; never null, empty for a page with no visible text. */
    public static String visibleText(String html) {
        Document doc = Jsoup.parse(html);
        StringBuilder out = new StringBuilder(Math.max(16, html.length() / 2));
        Element title = doc.head().selectFirst("title");
        if (title != null) {
            out.append(title.text()).append('\n');
        }
        NodeTraversor.traverse(new Collector(out), doc.body());
        return out.toString();
    }

    private static boolean isHidden(String tag) {
        switch (tag) {
            case "script":
            case "style":
            case "noscript":
            case "template":
            case "svg":
            case "math":
            case "iframe":
            case "object":
            case "head":
                return true;
            default:
                return false;
        }
    }

    /** Appends text nodes, with a separator around block elements, skipping hidden subtrees. */
    private static final class Collector implements NodeVisitor {
        private final StringBuilder out;
        private int hiddenDepth;

        Collector(StringBuilder out) {
            this.out = out;
        }

        @Override
        public void head(Node node, int depth) {
            if (node instanceof Element) {
                Element e = (Element) node;
                if (hiddenDepth > 0 || isHidden(e.normalName())) {
                    hiddenDepth++;
                    return;
                }
                if (e.isBlock() || e.normalName().equals("br")) {
                    separate();
                }
            } else if (hiddenDepth == 0
                    && node instanceof TextNode
                    && !(node instanceof CDataNode)) {
                // jsoup keeps "<![CDATA[...]]>" as text; an HTML5 browser reads it, outside svg
                // and math (dropped above), as a bogus comment, which is not displayed.
                out.append(((TextNode) node).getWholeText());
            }
        }

        @Override
        public void tail(Node node, int depth) {
            if (node instanceof Element) {
                if (hiddenDepth > 0) {
                    hiddenDepth--;
                    return;
                }
                if (((Element) node).isBlock()) {
                    separate();
                }
            }
        }

        private void separate() {
            if (out.length() > 0 && out.charAt(out.length() - 1) != '\n') {
                out.append('\n');
            }
        }
    }
}
