/**
 * The instance's coordination (lib/cluster/coordination.ts): Redis when `REDIS_URL` is set (cluster
 * mode), otherwise this process's memory (single-node mode). One per process, closed at shutdown.
 */
import { redisUrlSetting } from "../env";
import { onShutdown } from "../shutdown";
import { singleton } from "../singleton";
import type { Coordination } from "./coordination";
import { InProcessCoordination } from "./in-process";
import { RedisCoordination } from "./redis";

export type { Coordination, MessageHandler, Slot, Tally } from "./coordination";
export { InProcessCoordination } from "./in-process";
export { RedisCoordination } from "./redis";

/** This process's coordination, made on first use from `REDIS_URL`. */
export function coordination(): Coordination {
  return singleton("cluster.coordination", () => {
    const url = redisUrlSetting();
    if (!url) return new InProcessCoordination();
    const redis = new RedisCoordination(url);
    onShutdown("redis", () => redis.close());
    return redis;
  });
}

/** Whether this process runs in cluster mode (`REDIS_URL` set). */
export function clustered(): boolean {
  return redisUrlSetting() !== undefined;
}
