import * as z from "./lib/external";
export * from "./lib/external";
export { z };

export interface ClientOptions {
  url: string;
  retries?: number;
  onError?(e: Error): void;
}

export declare class Client {
  static create(): Client;
  constructor(opts: ClientOptions);
  get(key: string): string;
  configure(opts: Partial<ClientOptions>): void;
  readonly name: string;
  timeout: number;
}

export declare function createClient(opts?: ClientOptions): Client;
export { createClient as makeClient };

export declare class Base {
  run(): void;
}

export declare class Derived extends Base {
  stop(): void;
}

export interface Plugin {
  setup(): void;
}

export declare const version: string;

export interface ButtonProps {
  label: string;
  onPress?(): void;
}
export declare function Button(props: ButtonProps): JSX.Element;
declare global {
  namespace JSX {
    interface Element {}
    interface IntrinsicElements {}
  }
}
