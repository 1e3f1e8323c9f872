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
 * The reference that {@link HtmlText}'s streaming scanner is compared with: the visible text of a
 * page by jsoup's HTML5 parser and a walk of its DOM (the implementation the scanner replaced, same
 * contract; several times slower).
 */
final class HtmlTextDom {

    private HtmlTextDom() {}

    /** The visible text of {@code html}, by jsoup's DOM. */
    static String visibleText(String html) {
        Document doc = Jsoup.parse(html);
        StringBuilder out = new StringBuilder(Math.max(16, html.length() / 2));
        Element title = doc.head().selectFirst("title");
        if (title != null) {
            out.append(title.text()).append('\n');
        }
        NodeTraversor.traverse(new Collector(out), doc.body());
        return out.toString();
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
            if (node instanceof Element e) {
                if (hiddenDepth > 0 || HtmlText.HIDDEN.contains(e.normalName())) {
                    hiddenDepth++;
                    return;
                }
                if (e.isBlock() || e.normalName().equals("br")) {
                    separate();
                }
            } else if (hiddenDepth == 0
                    && node instanceof TextNode text
                    && !(node instanceof CDataNode)) {
                // jsoup keeps "<![CDATA[...]]>" as text; an HTML5 browser reads it, outside svg
                // and math (dropped above), as a bogus comment, which is not displayed.
                out.append(text.getWholeText());
            }
        }

        @Override
        public void tail(Node node, int depth) {
            if (node instanceof Element e) {
                if (hiddenDepth > 0) {
                    hiddenDepth--;
                } else if (e.isBlock()) {
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
