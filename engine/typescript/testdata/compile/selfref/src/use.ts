import { createRef, legacy } from 'selfkit';
import { attach } from 'selfkit/runtime';

// The ref comes from the package's index, the function taking it from a
// file that reads the index through "./": one declaration file, one type.
attach(createRef<number>());
legacy();
