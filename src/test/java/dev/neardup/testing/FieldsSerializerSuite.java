package dev.neardup.testing;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.Objects;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.testutils.DeeplyEqualsChecker;

/**
 * Flink's serializer test suite (copies as objects and as bytes, sequences, snapshots, duplicates)
 * for a serializer of the job's own records, which have no equals of their own: records are
 * compared field by field (public fields, or a Java record's components), the job's records inside
 * them the same way, arrays by content.
 */
public abstract class FieldsSerializerSuite<T> extends SerializerTestBase<T> {

    private static final DeeplyEqualsChecker SAME_FIELDS =
            new DeeplyEqualsChecker()
                    .withCustomCheck(
                            (a, b) -> ours(a.getClass()), (a, b, checker) -> sameFields(a, b));

    private final TypeSerializer<T> serializer;
    private final Class<T> type;

    protected FieldsSerializerSuite(TypeSerializer<T> serializer, Class<T> type) {
        super(SAME_FIELDS);
        this.serializer = serializer;
        this.type = type;
    }

    private static boolean ours(Class<?> type) {
        return type.getName().startsWith("dev.neardup.") && !Enum.class.isAssignableFrom(type);
    }

    /** Whether {@code a} and {@code b} have the same fields (the job's records recursively). */
    public static boolean sameFields(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a.getClass() != b.getClass()) {
            return false;
        }
        if (!ours(a.getClass()) || a instanceof Enum) {
            return Objects.deepEquals(a, b);
        }
        try {
            if (a.getClass().isRecord()) {
                for (RecordComponent c : a.getClass().getRecordComponents()) {
                    if (!sameFields(c.getAccessor().invoke(a), c.getAccessor().invoke(b))) {
                        return false;
                    }
                }
                return true;
            }
            for (Field f : a.getClass().getFields()) {
                if (!Modifier.isStatic(f.getModifiers()) && !sameFields(f.get(a), f.get(b))) {
                    return false;
                }
            }
            return true;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    protected TypeSerializer<T> createSerializer() {
        return serializer.duplicate();
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<T> getTypeClass() {
        return type;
    }
}
