package dev.neardup.pipeline;

import dev.neardup.pipeline.verdicts.VerdictOperator;
import dev.neardup.similarity.Estimate;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoField;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializer;

/**
 * The readers of waiting verdicts ({@link PendingVerdict}) written by older state layouts. Raw
 * keyed state keeps no serializer snapshot, so {@link VerdictOperator} reads a key group of an
 * older layout with the POJO serializer of that layout: today's class less the fields added since.
 * Layout 2 (until cluster ids) began a group with the count of its verdicts, all verified in the
 * buckets, and its {@link MatchList} had no clusters; layout 3 began it with a marker of its path,
 * -2 or -3, and had no {@link MatchList#directions}: containment packed each match's direction into
 * its similarity, value + 2 x code (0: the document is contained in the match, 1: the match in the
 * document, 2: both, with the smaller value); layout 4 began it with -4 or -5 and had no {@link
 * PendingVerdict#earlyAlerted} (nothing was alerted early then); layout 5 began it with -6 or -7
 * and wrote each verdict's key with {@code writeUTF} (which refuses keys over 64 KB), its verdict
 * as today. Keyed state restores through Flink's POJO schema evolution. Either way {@link
 * CandidatePath#upgrade} decodes layout 3's packed estimates once, as the verdict is read.
 */
public final class OlderPendingVerdicts {

    /** The directions of layout 3's codes 0, 1 and 2. */
    private static final Estimate.Direction[] CODES = {
        Estimate.Direction.FIRST_IN_SECOND,
        Estimate.Direction.SECOND_IN_FIRST,
        Estimate.Direction.MUTUAL
    };

    private OlderPendingVerdicts() {}

    /** The layout of a key group of raw keyed state that begins with {@code first}. */
    public static int layout(int first) {
        return first >= 0
                ? 2
                : first >= -3 ? 3 : first >= -5 ? 4 : first >= -7 ? 5 : StateCompatibility.LAYOUT;
    }

    /** The path whose waiting verdicts a key group beginning with {@code first} holds, or null. */
    public static CandidatePath path(int first) {
        return first >= 0
                        || first == -2
                        || first == -4
                        || first == -6
                        || first == CandidatePath.RAW_STATE_IN_BUCKETS
                ? CandidatePath.inBuckets()
                : first == -3
                                || first == -5
                                || first == -7
                                || first == CandidatePath.RAW_STATE_SAMPLE_STORE
                        ? CandidatePath.throughSampleStore()
                        : null;
    }

    /**
     * The serializer of {@code type} as {@code layout} wrote it, for the layouts before 5 (which
     * wrote verdicts as today).
     */
    @SuppressWarnings("unchecked")
    public static TypeSerializer<PendingVerdict> serializer(
            int layout, Class<? extends PendingVerdict> type, SerializerConfig config) {
        Set<String> later =
                switch (layout) {
                    case 2 -> Set.of("clusterIds", "clusterTimes", "directions", "earlyAlerted");
                    case 3 -> Set.of("directions", "earlyAlerted");
                    default -> Set.of("earlyAlerted");
                };
        return pojo(
                (Class<PendingVerdict>) type,
                later,
                config,
                pojo(MatchList.class, later, config, null));
    }

    /** A POJO serializer of {@code type} without the fields {@code later}. */
    private static <T> PojoSerializer<T> pojo(
            Class<T> type,
            Set<String> later,
            SerializerConfig config,
            TypeSerializer<MatchList> matches) {
        PojoTypeInfo<T> info = (PojoTypeInfo<T>) TypeInformation.of(type);
        List<Field> fields = new ArrayList<>();
        List<TypeSerializer<?>> serializers = new ArrayList<>();
        for (int i = 0; i < info.getArity(); i++) {
            PojoField f = info.getPojoFieldAt(i);
            String name = f.getField().getName();
            if (!later.contains(name)) {
                fields.add(f.getField());
                serializers.add(
                        name.equals("matches")
                                ? matches
                                : f.getTypeInformation().createSerializer(config));
            }
        }
        return new PojoSerializer<>(
                type,
                serializers.toArray(TypeSerializer<?>[]::new),
                fields.toArray(Field[]::new),
                config);
    }

    /**
     * Decodes the packed estimates of {@code p}'s matches that have no direction (a containment
     * verdict of an older layout packed the direction into the similarity); returns {@code p},
     * which may be null.
     */
    static <P extends PendingVerdict> P decodeDirections(P p) {
        if (p == null || p.matches.directions.length == p.matches.ids.length) {
            return p;
        }
        MatchList m = p.matches;
        int decoded = m.directions.length;
        m.directions = Arrays.copyOf(m.directions, m.ids.length);
        for (int i = decoded; i < m.ids.length; i++) {
            int code = m.similarities[i] >= 4 ? 2 : m.similarities[i] >= 2 ? 1 : 0;
            m.similarities[i] -= 2 * code;
            m.directions[i] = CODES[code];
        }
        return p;
    }
}
