package dev.neardup.pipeline;

import java.util.Objects;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * The type of records that have a serializer of their own (those between the streaming job's
 * operators, {@code pipeline.records}, and between the dedupe job's steps): equal to another of the
 * same class and serializer.
 */
public final class RecordType<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private final TypeSerializer<T> serializer;

    public RecordType(Class<T> type, TypeSerializer<T> serializer) {
        this.type = type;
        this.serializer = serializer;
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer;
    }

    @Override
    public String toString() {
        return type.getSimpleName() + " (" + serializer.getClass().getSimpleName() + ")";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof RecordType<?> other
                && other.type == type
                && other.serializer.equals(serializer);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, serializer);
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof RecordType;
    }
}
