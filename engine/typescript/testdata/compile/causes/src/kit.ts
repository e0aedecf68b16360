import { kit } from "globkit";
kit.shot();
