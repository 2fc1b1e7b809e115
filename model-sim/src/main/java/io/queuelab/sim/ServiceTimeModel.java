package io.queuelab.sim;

import java.util.LinkedHashMap;
import java.util.Map;

/** A single-server model described by its service-time distribution (the M/M/1 family). */
public interface ServiceTimeModel extends Model {

    /** The service time a request needs alone on the server, seconds. */
    Distribution service();

    @Override
    default Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("service", service().describe());
        return p;
    }

    @Override
    default double serverDemand() {
        return service().mean();
    }
}
