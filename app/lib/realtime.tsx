'use client';

/**
 * The live channel of the interface: one socket.io connection to `/api/v1/ws` per tab (session
 * cookie, same origin), shared by every component through `useRealtimeEvent`. Events only say what
 * changed; the components re-read it through the API. After a reconnection the `reconnected`
 * listeners run, since events sent while the socket was down are lost.
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { RealtimeEvents } from '@/server/core/realtime/emit';

export type { RealtimeEvents };
export type RealtimeEventName = keyof RealtimeEvents;

interface RealtimeValue {
  socket: Socket | null;
  connected: boolean;
}

const RealtimeContext = createContext<RealtimeValue>({ socket: null, connected: false });

export const realtimePath = '/api/v1/ws';

export function RealtimeProvider({ children }: { children: ReactNode }) {
  const [value, setValue] = useState<RealtimeValue>({ socket: null, connected: false });

  useEffect(() => {
    const socket = io({ path: realtimePath, withCredentials: true, transports: ['websocket', 'polling'] });
    const update = () => setValue({ socket, connected: socket.connected });
    socket.on('connect', update);
    socket.on('disconnect', update);
    // A refused handshake (ended session) is answered by the API calls too; keep retrying quietly.
    socket.on('connect_error', update);
    update();
    return () => {
      socket.off('connect', update);
      socket.off('disconnect', update);
      socket.off('connect_error', update);
      socket.disconnect();
    };
  }, []);

  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}

/** Component tests: the live channel over a socket of the test's own (anything with `on` and `off`). */
export function RealtimeTestProvider({ socket, children }: { socket: Pick<Socket, 'on' | 'off'>; children: ReactNode }) {
  return <RealtimeContext.Provider value={{ socket: socket as Socket, connected: true }}>{children}</RealtimeContext.Provider>;
}

export function useRealtimeStatus(): boolean {
  return useContext(RealtimeContext).connected;
}

/** Calls `handler` on each `event` (the latest handler: no need to memoise it). */
export function useRealtimeEvent<E extends RealtimeEventName>(event: E, handler: (payload: Partial<RealtimeEvents[E]>) => void): void {
  const { socket } = useContext(RealtimeContext);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!socket) return;
    // Payloads too large to notify arrive empty ({}): handlers treat every field as optional.
    const listener = (payload: unknown) => latest.current((payload && typeof payload === 'object' ? payload : {}) as Partial<RealtimeEvents[E]>);
    socket.on(event as string, listener);
    return () => {
      socket.off(event as string, listener);
    };
  }, [socket, event]);
}

/** Calls `handler` each time the socket connects again after a loss (not on the first connection). */
export function useRealtimeReconnect(handler: () => void): void {
  const { socket } = useContext(RealtimeContext);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!socket) return;
    let seen = socket.connected;
    const listener = () => {
      if (seen) latest.current();
      seen = true;
    };
    socket.on('connect', listener);
    return () => {
      socket.off('connect', listener);
    };
  }, [socket]);
}
