var _="0.1.0";export{_ as a};
