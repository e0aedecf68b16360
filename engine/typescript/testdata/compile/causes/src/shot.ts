import { expect } from "matchkit";
expect(1).toMatchShot();
