package io.queuelab.core.manifest;

/**
 * The parameters of a simulated run's model ({@code model.parameters}); which are set depends on
 * the model.
 *
 * @param service      the service time ({@code mm1}, {@code mm1-ps}, {@code mm1-ld})
 * @param p            {@code mm1-ld}: the load dependence (with n jobs present the server works at 1/(1+p)^(n-1) of its speed)
 * @param capacity     {@code mm1-ld}: the most jobs in the system (an arrival beyond is dropped)
 * @param networkDelay {@code dpb}: the network delay before the job queue
 * @param processing   {@code dpb}: a job's processing time
 * @param bufferPages  {@code dpb}: the dirty-page buffer's size in pages
 * @param dirtyPage    {@code dpb}: the time between a job's page writes
 * @param connections  {@code client-ps}: the client's connections K (requests inside the server at most)
 * @param cores        {@code client-ps}: the server's cores c shared by the requests inside
 * @param sliceSeconds {@code client-slice}: the time slice the cores are shared in (absent: processor sharing)
 * @param sliceFixedSeconds {@code client-slice}: the fixed part of each slice, the rest exponential (absent: 0)
 * @param cutIn        {@code client-slice}: the probability that a request taking a connection runs before those waiting (absent: 0)
 * @param flush        {@code group-commit}: the duration of one log flush apart from its commits
 * @param perCommitSeconds {@code group-commit}: what each commit a flush carries adds to it
 * @param maxGroup     {@code group-commit}: the most commits one flush carries (0: no bound but the connections)
 * @param latencySeconds any model: a constant time outside the server before each request reaches it, counted in its
 *                     response and inside a closed job's cycle (absent: none)
 */
public record ModelParameters(DistributionSpec service, Double p, Integer capacity, DistributionSpec networkDelay,
                              DistributionSpec processing, Integer bufferPages, DistributionSpec dirtyPage,
                              Integer connections, Integer cores, Double sliceSeconds, Double sliceFixedSeconds, Double cutIn,
                              DistributionSpec flush, Double perCommitSeconds, Integer maxGroup,
                              Double latencySeconds) {
}
