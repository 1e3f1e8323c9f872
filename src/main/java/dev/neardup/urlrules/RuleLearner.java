package dev.neardup.urlrules;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Learns URL rewrite rules from near-duplicate pairs, per host, in the manner of DUST (Bar-Yossef,
 * Keidar and Schonfeld, ACM TWEB 2009): every pair proposes the rules that explain where its two
 * URLs differ, a rule's <b>support</b> is the pairs it explains, and its <b>violations</b> are the
 * pairs of distinct pages that it would merge although they are not near-duplicates. As Dasgupta,
 * Kumar and Sasturkar (KDD 2008) and Koppula et al. (WSDM 2010) do, a pair may need several rules
 * at once, and the rules are learned in an order in which they are then applied:
 *
 * <ol>
 *   <li>host aliases (the pair's paths are equal, its hosts differ), towards the host with more
 *       pages (an alias of a host that is already an alias goes to where that one goes);
 *   <li>the scheme ({@code http://host} to {@code https://host});
 *   <li>dropped query parameters (a parameter present in one URL only, or with another value);
 *   <li>path replacements (the differing path segments, or tokens of one segment, towards the
 *       shorter text).
 * </ol>
 *
 * <p>Each step sees the URLs as the rules already accepted rewrite them, and takes its candidates
 * most supported first, each checked against the pages with the rules accepted before it. A rule is
 * kept when its support reaches {@link Settings#minSupport} and its precision, support / (support +
 * violations), reaches {@link Settings#minPrecision}. A violation is a pair of pages, as URLs that
 * differ after the rules before it, that the rule gives one URL while their clusters differ: a page
 * number or an item id is a parameter whose values name different pages, so dropping it merges
 * pages of different clusters and the rule is not kept. Cost: one pass over the pages of the rule's
 * host (and, for an alias, of its target) for each candidate with enough support, and for the
 * {@link #REJECTED} most supported candidates that are shown though not kept.
 */
public final class RuleLearner {

    /**
     * A page: its URL and its cluster of near-duplicates (pages of one cluster have the same
     * content as far as the rules are concerned).
     */
    public record Page(String url, String cluster) {}

    /** Two URLs of near-duplicate pages. */
    public record Pair(String url, String duplicateUrl) {}

    /**
     * The bounds of a rule that is kept.
     *
     * @param minSupport the fewest pairs it must explain
     * @param minPrecision the least support / (support + violations)
     * @param examples how many of its pairs a rule keeps as examples
     */
    public record Settings(int minSupport, double minPrecision, int examples) {}

    /**
     * A rule with its evidence.
     *
     * @param support the pairs it explains (at this step of the learning)
     * @param violations the pairs of pages of different clusters it would merge, or -1 when they
     *     were not counted (a candidate below the support bound)
     * @param examples some of the pairs it explains, as the input gave them
     */
    public record Learned(UrlRule rule, long support, long violations, List<Pair> examples) {
        /** support / (support + violations); NaN when the violations were not counted. */
        public double precision() {
            return violations < 0 ? Double.NaN : support / (double) (support + violations);
        }
    }

    /**
     * What the learning found.
     *
     * @param rules the rules kept, in the order in which they are applied
     * @param rejected the candidates not kept, most supported first (at most {@link #REJECTED})
     * @param pairs the distinct pairs of absolute, different URLs learned from
     * @param explained the pairs whose URLs the rules normalise to one
     */
    public record Result(List<Learned> rules, List<Learned> rejected, long pairs, long explained) {}

    /** At most this many rejected candidates are kept for the report. */
    public static final int REJECTED = 50;

    /** Rules whose {@code from} or {@code to} is longer than this are not proposed. */
    public static final int MAX_RULE_CHARS = 256;

    private enum Step {
        HOST_ALIAS,
        SCHEME,
        PARAMETER,
        PATH
    }

    private final Settings settings;
    private final List<String> pageUrls = new ArrayList<>();
    private final List<String> pageClusters = new ArrayList<>();
    private final List<Pair> pairs = new ArrayList<>();

    /** The pages' URLs as the rules accepted so far rewrite them. */
    private String[] current;

    private final List<UrlRule> accepted = new ArrayList<>();

    private RuleLearner(Settings settings) {
        this.settings = settings;
    }

    /**
     * Learns the rules of {@code pages} from {@code pairs}. A URL given for several pages keeps the
     * last page's cluster; pairs are taken once whichever way round, and pairs of equal or
     * non-absolute URLs are left out.
     */
    public static Result learn(Collection<Page> pages, Collection<Pair> pairs, Settings settings) {
        RuleLearner learner = new RuleLearner(settings);
        Map<String, String> clusters = new LinkedHashMap<>();
        for (Page page : pages) {
            if (Url.parse(page.url()) != null) {
                clusters.put(page.url(), page.cluster());
            }
        }
        clusters.forEach(
                (url, cluster) -> {
                    learner.pageUrls.add(url);
                    learner.pageClusters.add(cluster);
                });
        Set<List<String>> seen = new HashSet<>();
        for (Pair pair : pairs) {
            String a = pair.url();
            String b = pair.duplicateUrl();
            if (a == null || b == null || a.equals(b) || Url.parse(a) == null) {
                continue;
            }
            if (Url.parse(b) == null) {
                continue;
            }
            List<String> key = a.compareTo(b) < 0 ? List.of(a, b) : List.of(b, a);
            if (seen.add(key)) {
                learner.pairs.add(pair);
            }
        }
        return learner.run();
    }

    private Result run() {
        current = pageUrls.toArray(String[]::new);
        List<Learned> kept = new ArrayList<>();
        List<Learned> rejected = new ArrayList<>();
        for (Step step : Step.values()) {
            List<Learned> stepKept = new ArrayList<>();
            for (Candidate proposed : candidates(step)) {
                Candidate c = proposed.resolved();
                if (c == null) {
                    continue; // an alias of a host that is already an alias
                }
                long support = c.support(accepted);
                if (support == 0) {
                    continue; // explained by a rule kept before it
                }
                if (support < settings.minSupport()) {
                    rejected.add(c.learned(support, -1));
                    continue;
                }
                long violations = violations(c.rule);
                Learned learned = c.learned(support, violations);
                if (learned.precision() >= settings.minPrecision()) {
                    accept(c.rule);
                    stepKept.add(learned);
                } else {
                    rejected.add(learned);
                }
            }
            kept.addAll(stepKept);
        }
        // The violations of the most supported rejected candidates, for the report.
        rejected.sort(Comparator.comparingLong(Learned::support).reversed());
        List<Learned> shown = new ArrayList<>();
        for (Learned r : rejected.subList(0, Math.min(REJECTED, rejected.size()))) {
            shown.add(
                    r.violations() < 0
                            ? new Learned(r.rule(), r.support(), violations(r.rule()), r.examples())
                            : r);
        }
        long explained = 0;
        for (Pair pair : pairs) {
            if (UrlRule.normalise(accepted, pair.url())
                    .equals(UrlRule.normalise(accepted, pair.duplicateUrl()))) {
                explained++;
            }
        }
        return new Result(kept, shown, pairs.size(), explained);
    }

    private void accept(UrlRule rule) {
        accepted.add(rule);
        for (int k : pagesOf(rule)) {
            current[k] = rule.apply(current[k]);
        }
        if (rule.kind() == UrlRule.Kind.HOST_ALIAS) {
            byHost = null; // pages moved to another host
        }
    }

    /** The pages by their current host: the only pages a rule of that host can rewrite. */
    private Map<String, List<Integer>> byHost;

    /** The pages whose current host is the rule's (for an alias, also its target's). */
    private List<Integer> pagesOf(UrlRule rule) {
        if (byHost == null) {
            byHost = new HashMap<>();
            for (int k = 0; k < current.length; k++) {
                byHost.computeIfAbsent(Url.parse(current[k]).host(), h -> new ArrayList<>()).add(k);
            }
        }
        List<Integer> pages = new ArrayList<>(byHost.getOrDefault(rule.host(), List.of()));
        if (rule.kind() == UrlRule.Kind.HOST_ALIAS) {
            pages.addAll(byHost.getOrDefault(rule.to(), List.of()));
        }
        return pages;
    }

    /** A proposed rule and the pairs that proposed it. */
    private final class Candidate {
        final UrlRule rule;
        final List<Pair> pairs = new ArrayList<>();

        Candidate(UrlRule rule) {
            this.rule = rule;
        }

        /**
         * This candidate as the rules kept so far leave it: a host alias whose target is already an
         * alias of another host goes to that host, so that the pages of a chain end on one host
         * (and are checked against that host's pages); null for an alias of a host that is itself
         * an alias already, or of a host to itself.
         */
        Candidate resolved() {
            if (rule.kind() != UrlRule.Kind.HOST_ALIAS) {
                return this;
            }
            String to = rule.to();
            for (UrlRule kept : accepted) {
                if (kept.from().equals(rule.from())) {
                    return null;
                }
                if (kept.from().equals(to)) {
                    to = kept.to();
                }
            }
            if (to.equals(rule.from())) {
                return null;
            }
            if (to.equals(rule.to())) {
                return this;
            }
            Candidate c = new Candidate(UrlRule.hostAlias(rule.from(), to));
            c.pairs.addAll(pairs);
            return c;
        }

        /** The pairs that still differ and that the rule, after {@code before}, rewrites. */
        long support(List<UrlRule> before) {
            long n = 0;
            for (Pair p : pairs) {
                String a = UrlRule.normalise(before, p.url());
                String b = UrlRule.normalise(before, p.duplicateUrl());
                if (!a.equals(b) && (!rule.apply(a).equals(a) || !rule.apply(b).equals(b))) {
                    n++;
                }
            }
            return n;
        }

        Learned learned(long support, long violations) {
            return new Learned(
                    rule,
                    support,
                    violations,
                    List.copyOf(pairs.subList(0, Math.min(settings.examples(), pairs.size()))));
        }
    }

    /** The candidates of a step, most supported first, then by rule. */
    private List<Candidate> candidates(Step step) {
        Map<String, Integer> pagesPerHost = new HashMap<>();
        for (String url : current) {
            pagesPerHost.merge(Url.parse(url).host(), 1, Integer::sum);
        }
        Map<UrlRule, Candidate> candidates = new LinkedHashMap<>();
        for (Pair pair : pairs) {
            Url a = Url.parse(UrlRule.normalise(accepted, pair.url()));
            Url b = Url.parse(UrlRule.normalise(accepted, pair.duplicateUrl()));
            if (a == null || b == null || a.text().equals(b.text())) {
                continue;
            }
            Set<UrlRule> rules = new HashSet<>();
            switch (step) {
                case HOST_ALIAS -> hostAlias(a, b, pagesPerHost, rules);
                case SCHEME -> scheme(a, b, rules);
                case PARAMETER -> parameters(a, b, rules);
                case PATH -> paths(a, b, rules);
            }
            for (UrlRule rule : rules) {
                candidates.computeIfAbsent(rule, Candidate::new).pairs.add(pair);
            }
        }
        List<Candidate> sorted = new ArrayList<>(candidates.values());
        sorted.sort(
                Comparator.comparingInt((Candidate c) -> -c.pairs.size())
                        .thenComparing(c -> c.rule.toString()));
        return sorted;
    }

    private static void hostAlias(Url a, Url b, Map<String, Integer> pages, Set<UrlRule> out) {
        if (a.host().equals(b.host()) || !a.path().equals(b.path())) {
            return;
        }
        int na = pages.getOrDefault(a.host(), 0);
        int nb = pages.getOrDefault(b.host(), 0);
        boolean toA =
                na != nb
                        ? na > nb
                        : a.host().length() != b.host().length()
                                ? a.host().length() < b.host().length()
                                : a.host().compareTo(b.host()) < 0;
        out.add(
                toA
                        ? UrlRule.hostAlias(b.host(), a.host())
                        : UrlRule.hostAlias(a.host(), b.host()));
    }

    private static void scheme(Url a, Url b, Set<UrlRule> out) {
        if (!a.host().equals(b.host()) || a.scheme().equals(b.scheme())) {
            return;
        }
        Url http = a.scheme().equals("http") ? a : b.scheme().equals("http") ? b : null;
        Url https = a.scheme().equals("https") ? a : b.scheme().equals("https") ? b : null;
        if (http == null || https == null) {
            return;
        }
        String from = http.origin();
        String to = https.origin();
        if (from.length() <= MAX_RULE_CHARS && to.length() <= MAX_RULE_CHARS) {
            out.add(UrlRule.replace(http.host(), from, to));
        }
    }

    private static void parameters(Url a, Url b, Set<UrlRule> out) {
        if (!a.host().equals(b.host())) {
            return;
        }
        Map<String, List<String>> pa = parameters(a.query());
        Map<String, List<String>> pb = parameters(b.query());
        Set<String> names = new TreeSet<>(pa.keySet());
        names.addAll(pb.keySet());
        for (String name : names) {
            if (!pa.getOrDefault(name, List.of()).equals(pb.getOrDefault(name, List.of()))
                    && !name.isEmpty()
                    && name.length() <= MAX_RULE_CHARS) {
                out.add(UrlRule.dropParameter(a.host(), name));
            }
        }
    }

    /** The query's parameters, by name, with their values in order. */
    private static Map<String, List<String>> parameters(String query) {
        Map<String, List<String>> out = new HashMap<>();
        if (query == null) {
            return out;
        }
        for (String part : query.split("&", -1)) {
            if (!part.isEmpty()) {
                out.computeIfAbsent(Url.parameterName(part), k -> new ArrayList<>()).add(part);
            }
        }
        return out;
    }

    private static void paths(Url a, Url b, Set<UrlRule> out) {
        if (!a.host().equals(b.host()) || a.path().equals(b.path())) {
            return;
        }
        String pathA = a.path().isEmpty() ? "/" : a.path();
        String pathB = b.path().isEmpty() ? "/" : b.path();
        if (pathA.equals(pathB)) {
            return;
        }
        for (List<PathDiff.Option> options : PathDiff.hunks(pathA, pathB)) {
            for (PathDiff.Option o : options) {
                UrlRule rule = pathRule(a, b, o);
                if (rule != null) {
                    out.add(rule);
                    break;
                }
            }
        }
    }

    /**
     * The rule that rewrites a hunk towards its shorter side (then the lesser text), or null when
     * its longer side does not occur first where the hunk is (then it would rewrite elsewhere).
     */
    private static UrlRule pathRule(Url a, Url b, PathDiff.Option o) {
        boolean toA =
                o.a().length() != o.b().length()
                        ? o.a().length() < o.b().length()
                        : o.a().compareTo(o.b()) < 0;
        Url fromUrl = toA ? b : a;
        String from = toA ? o.b() : o.a();
        String to = toA ? o.a() : o.b();
        int at = toA ? o.bAt() : o.aAt();
        if (from.isEmpty() || from.length() > MAX_RULE_CHARS || to.length() > MAX_RULE_CHARS) {
            return null;
        }
        if (fromUrl.text().indexOf(from) != fromUrl.origin().length() + at) {
            return null;
        }
        return UrlRule.replace(a.host(), from, to);
    }

    /**
     * The pairs of pages that {@code rule}, applied after the rules kept so far, gives one URL,
     * whose URLs differed before it, and whose clusters differ.
     */
    private long violations(UrlRule rule) {
        // Pages by their URL with the rule, then by their URL before it, then by cluster.
        Map<String, Map<String, Map<String, Integer>>> groups = new HashMap<>();
        for (int k : pagesOf(rule)) {
            String before = current[k];
            String after = rule.apply(before);
            groups.computeIfAbsent(after, x -> new HashMap<>())
                    .computeIfAbsent(before, x -> new HashMap<>())
                    .merge(pageClusters.get(k), 1, Integer::sum);
        }
        long violations = 0;
        for (Map<String, Map<String, Integer>> group : groups.values()) {
            if (group.size() < 2) {
                continue;
            }
            Map<String, Integer> clusters = new HashMap<>();
            long sameUrl = 0;
            for (Map<String, Integer> byCluster : group.values()) {
                byCluster.forEach((c, n) -> clusters.merge(c, n, Integer::sum));
                sameUrl += differentClusterPairs(byCluster);
            }
            violations += differentClusterPairs(clusters) - sameUrl;
        }
        return violations;
    }

    /** Pairs of pages in different clusters among pages counted per cluster. */
    private static long differentClusterPairs(Map<String, Integer> perCluster) {
        long n = 0;
        long same = 0;
        for (int c : perCluster.values()) {
            n += c;
            same += (long) c * (c - 1) / 2;
        }
        return n * (n - 1) / 2 - same;
    }
}
