package dev.neardup.batch;

import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/** The keyed state of the dedupe job's functions, typed by class. */
final class KeyedStates {

    private KeyedStates() {}

    static <T> ValueState<T> value(RuntimeContext context, String name, Class<T> type) {
        return context.getState(new ValueStateDescriptor<>(name, TypeInformation.of(type)));
    }

    static <T> ListState<T> list(RuntimeContext context, String name, Class<T> type) {
        return context.getListState(new ListStateDescriptor<>(name, TypeInformation.of(type)));
    }
}
