declare function describeIt(name: string, fn: () => void): void;
declare namespace globlib {
  function go(): void;
}
