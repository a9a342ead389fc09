import{a}from"./chunk-N3CTNBD2.js";import"./chunk-RLG55I22.js";export default a();
