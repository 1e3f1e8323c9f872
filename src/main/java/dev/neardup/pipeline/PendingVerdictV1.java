package dev.neardup.pipeline;

/**
 * {@link PendingVerdict} as written to the verdict operator's raw keyed state before cluster ids
 * (checkpoints and savepoints of November 2026, state layout 2): the same fields with the {@link
 * MatchList} of that time, which had no clusters. Raw keyed state keeps no serializer snapshot, so
 * Flink cannot migrate it: {@link VerdictOperator} reads such state with this class's Flink POJO
 * serializer (a POJO's binary form depends on its field names and types, not on its class name) and
 * converts it. Frozen: do not change its fields.
 */
public class PendingVerdictV1 {
    public String docId;
    public String url;
    public long eventTime;
    public int records;
    public String[] sources = new String[0];
    public int candidates;
    public int reports = -1;
    public Matches matches = new Matches();

    public PendingVerdictV1() {}

    /** The MatchList of that time. */
    public static class Matches {
        public String[] ids = new String[0];
        public String[] urls = new String[0];
        public long[] eventTimes = new long[0];
        public double[] similarities = new double[0];

        public Matches() {}
    }

    /** The same verdict in today's class (every match its own cluster, as then). */
    PendingVerdict upgrade() {
        PendingVerdict p = new PendingVerdict();
        p.docId = docId;
        p.url = url;
        p.eventTime = eventTime;
        p.records = records;
        p.sources = sources;
        p.candidates = candidates;
        p.reports = reports;
        if (matches != null) {
            for (int i = 0; i < matches.ids.length; i++) {
                p.matches.add(
                        matches.ids[i],
                        matches.urls[i],
                        matches.eventTimes[i],
                        matches.similarities[i],
                        null,
                        0);
            }
        }
        return p;
    }
}
