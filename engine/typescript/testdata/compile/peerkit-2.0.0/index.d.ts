// What @testing-library/react does with @testing-library/dom: re-export it.
export * from 'domkit';
export declare function render(ui: string): void;
